import type { Context } from 'hono';
import type { Data, Sendable, Work } from '@domain/contract';
import { object, optional, string } from 'superstruct';
import type { ContentUser } from '../../content/works';
import { workView } from '../../content/works';
import type { ApiApp, Env, RouteContext } from '../context';

/**
 * The user the content site is asked about: the user's token at the identity provider (the
 * agency's access token the request carried, or, in OIDC mode, the provider's access token kept
 * with the session; the content site verifies it itself) and the signed-in user's identity.
 * Only after `auth`.
 */
export async function contentUser(c: Context<Env>): Promise<ContentUser> {
  const token = await c.get('credential').upstreamToken();
  const { subject, email } = c.get('user');
  return { token, subject, email };
}

/** The signed-in user's works on the content site (spec §7 GET /contents/remote). */
export function contentRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth, send, validQuery } = ctx;
  const Query = object({ lang: optional(string()) });

  app.get('/contents/remote', auth, async (c) => {
    validQuery(c, Query);
    const works = await deps.content.listWorks(await contentUser(c));
    c.header('cache-control', 'private, no-store');
    return send(c, { data: works.map((w) => workView(w, c.get('locale'))) } satisfies Sendable<Data<Work[]>>);
  });
}
