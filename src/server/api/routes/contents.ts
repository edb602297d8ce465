import type { Context } from 'hono';
import { object, optional, string } from 'superstruct';
import type { ContentUser } from '../../content/works';
import { workView } from '../../content/works';
import type { ApiApp, Env, RouteContext } from '../context';

/**
 * The user the content site is asked about: the Bearer token the request carried (the content
 * site verifies it itself) and the signed-in user's identity. Only after `auth`.
 */
export function contentUser(c: Context<Env>): ContentUser {
  const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  const { subject, email } = c.get('user');
  return { token, subject, email };
}

/** The signed-in user's works on the content site (spec §7 GET /contents/remote). */
export function contentRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth, send, validQuery } = ctx;
  const Query = object({ lang: optional(string()) });

  app.get('/contents/remote', auth, async (c) => {
    validQuery(c, Query);
    const works = await deps.content.listWorks(contentUser(c));
    c.header('cache-control', 'private, no-store');
    return send(c, { data: works.map((w) => workView(w, c.get('locale'))) });
  });
}
