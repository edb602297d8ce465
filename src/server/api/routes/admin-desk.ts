import { PickupBatch, VerifyRequest } from '@domain/desk-requests';
import type { Data, DeskBadge, PickupResult, Sendable } from '@domain/contract';
import { isUuid } from '@domain/validation';
import { badgePhotoThumbnail, deskBadges, recordPickups, verifyCode } from '../../desk/desk';
import { requireRight } from './admin';
import type { ApiApp, RouteContext } from '../context';
import { ApiError, notFound } from '../errors';

/**
 * The badge desk's API (issue 11), under /api/v1/admin/desk: behind the back office's organiser
 * gate (registered after `adminRoutes`, whose `app.use('/admin/*')` covers these routes).
 */
export function adminDeskRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;

  // Every badge of the edition, for the desk's offline cache: names, company, identity, the
  // registrant's e-mail and order (manual search), the order's state, the pick-up, the photo's
  // thumbnail URL, and the hash of the pick-up code (never the code or the secret).
  app.get('/admin/desk/badges', requireRight('desk'), async (c) => {
    const badges = await deskBadges(deps.db);
    c.header('cache-control', 'private, no-store');
    return ctx.send(c, {
      data: badges,
      meta: { total: badges.length, at: ctx.now().toISOString() },
    } satisfies Sendable<{ data: DeskBadge[]; meta: { total: number; at: string } }>);
  });

  // A scanned code: 400 when it is not a genuine pick-up code (malformed or forged), 404 when it
  // is genuine but names no badge; else the badge, with `refusal` when its order is not issued.
  app.post('/admin/desk/verify', requireRight('desk'), async (c) => {
    const { code } = await ctx.readJson(c, VerifyRequest);
    const found = await verifyCode(deps.db, deps.config.PICKUP_CODE_SECRET, code);
    if (found.kind === 'invalid')
      throw new ApiError(400, 'invalid_pickup_code', 'This is not a genuine badge pick-up code');
    if (found.kind === 'unknown') throw notFound('Badge');
    return ctx.send(c, { data: found.badge } satisfies Sendable<Data<DeskBadge>>);
  });

  // Pick-ups: one made now, or the queue of a desk that was offline. Each has the desk's own id:
  // sent again, it is answered as recorded the first time. Answers one result per pick-up
  // (picked_up, already_picked_up with who/when/where, refused with the reason, not_found).
  app.post('/admin/desk/pickups', requireRight('desk'), async (c) => {
    const batch = await ctx.readJson(c, PickupBatch);
    const results = await recordPickups(
      deps.db,
      batch.pickups,
      { organiser: c.get('user').email.toLowerCase(), desk: batch.desk.trim() },
      ctx.now(),
    );
    return ctx.send(c, { data: results } satisfies Sendable<Data<PickupResult[]>>);
  });

  // A badge photo's thumbnail (made once, then kept): organisers only, as an <img> (cookie) or fetch.
  app.get('/admin/desk/photos/:fileId', requireRight('desk'), async (c) => {
    const id = c.req.param('fileId');
    const bytes = isUuid(id) ? await badgePhotoThumbnail(deps.db, deps.storage, id.toLowerCase()) : null;
    if (!bytes) throw notFound('Photo');
    return new Response(Buffer.from(bytes), {
      headers: {
        'content-type': 'image/jpeg',
        'content-length': String(bytes.length),
        'cache-control': 'private, max-age=86400',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
