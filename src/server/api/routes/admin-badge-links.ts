import { BadgeLinkBatchInput, BadgeLinkQuery, batchExpiryIssue } from '@domain/badge-links';
import type {
  AdminBatch,
  AdminBatchDetail,
  AdminLink,
  BadgeLinkBatchCreated,
  BadgeLinkRevoked,
  BatchUnusedRevoked,
  Data,
  Sendable,
} from '@domain/contract';
import { linkTypeOf } from '@domain/badges';
import { isUuid } from '@domain/validation';
import {
  createBadgeLinkBatch,
  findBatch,
  linkPath,
  listBadgeLinks,
  listBatches,
  revokeBadgeLink,
  revokeUnusedOfBatch,
  type AdminBadgeLink,
  type BatchSummary,
} from '../../badges/badge-link-batches';
import { requireRight } from './admin';
import type { ApiApp, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';

/**
 * Free-badge links in bulk (issue 11), under the back office's organiser gate (`/admin/*`):
 * create a batch (a number of links, or one per e-mail address, each bound to it and e-mailed),
 * list the links made with who used them and when, revoke unused ones.
 */
export function adminBadgeLinkRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  const organiser = (c: { get: (key: 'user') => { email: string } }) => c.get('user').email;

  app.get('/admin/badge-links', requireRight('orders'), async (c) => {
    const query = ctx.validQuery(c, BadgeLinkQuery);
    const result = await listBadgeLinks(deps.db, query, ctx.now());
    return ctx.send(c, {
      data: result.items.map(linkView),
      meta: { page: result.page, limit: result.limit, total: result.total },
    });
  });

  app.post('/admin/badge-links', requireRight('orders'), async (c) => {
    const body = await ctx.readJson(c, BadgeLinkBatchInput);
    const now = ctx.now();
    const expiresAt = new Date(body.expiresAt);
    const expiry = batchExpiryIssue(expiresAt, now);
    if (expiry)
      throw badRequest('validation_failed', `expires_at: ${expiry}`, {
        issues: [{ path: 'expires_at', message: expiry }],
      });
    const { batch, links } = await createBadgeLinkBatch(
      deps.db,
      {
        identity: body.identity,
        count: body.count,
        emails: body.emails,
        expiresAt,
        note: body.note,
        createdBy: organiser(c),
      },
      { origin: ctx.originOf(c), from: deps.config.MAIL_FROM },
      now,
    );
    return ctx.send(
      c,
      {
        data: {
          batch: batchView({ ...batch, used: 0, revoked: 0, expired: 0, unused: batch.size }),
          links: links.map((l) => ({
            id: l.id,
            code: l.code,
            email: l.email,
            path: linkPath(batch.identity, l.code),
            urlEn: l.urls.en,
            urlZh: l.urls['zh-TW'],
            emailed: l.emailed,
          })),
        },
      } satisfies Sendable<Data<BadgeLinkBatchCreated>>,
      201,
    );
  });

  app.post('/admin/badge-links/:id/revoke', requireRight('orders'), async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw notFound('Badge link');
    const done = await revokeBadgeLink(deps.db, id, organiser(c), ctx.now());
    return ctx.send(c, { data: { id, result: done.result } } satisfies Sendable<Data<BadgeLinkRevoked>>);
  });

  app.get('/admin/badge-link-batches', requireRight('orders'), async (c) =>
    ctx.send(c, { data: (await listBatches(deps.db, ctx.now())).map(batchView) } satisfies Sendable<
      Data<AdminBatch[]>
    >),
  );

  app.get('/admin/badge-link-batches/:id', requireRight('orders'), async (c) => {
    const id = c.req.param('id');
    const batch = isUuid(id) ? await findBatch(deps.db, id, ctx.now()) : undefined;
    if (!batch) throw notFound('Batch');
    const links = await listBadgeLinks(deps.db, { batch: id, limit: 1000 }, ctx.now());
    return ctx.send(c, {
      data: { ...batchView(batch), links: links.items.map(linkView) },
    } satisfies Sendable<Data<AdminBatchDetail>>);
  });

  app.post('/admin/badge-link-batches/:id/revoke-unused', requireRight('orders'), async (c) => {
    const id = c.req.param('id');
    const batch = isUuid(id) ? await findBatch(deps.db, id, ctx.now()) : undefined;
    if (!batch) throw notFound('Batch');
    const revoked = await revokeUnusedOfBatch(deps.db, id, organiser(c), ctx.now());
    return ctx.send(c, { data: { id, revoked } } satisfies Sendable<Data<BatchUnusedRevoked>>);
  });
}

/** A batch on the wire. */
function batchView(b: BatchSummary) {
  return {
    id: b.id,
    identity: b.identity,
    linkType: linkTypeOf(b.identity),
    size: b.size,
    emailed: b.emailed,
    note: b.note,
    expiresAt: b.expiresAt,
    createdBy: b.createdBy,
    createdAt: b.createdAt,
    used: b.used,
    revoked: b.revoked,
    expired: b.expired,
    unused: b.unused,
  } satisfies Sendable<AdminBatch>;
}

/**
 * A link on the wire: its claim page's path (`/get-badge/{type}/{code}`; the locale goes in front,
 * `/en` or `/zh-tw`), what it is now, and who used it and when (their badge order).
 */
function linkView(l: AdminBadgeLink) {
  return {
    id: l.id,
    code: l.code,
    identity: l.identity,
    path: linkPath(l.identity, l.code),
    email: l.email,
    status: l.status,
    expiresAt: l.expiresAt,
    createdAt: l.createdAt,
    usedAt: l.usedAt,
    usedBy: l.usedAt && l.usedByEmail ? { email: l.usedByEmail, name: l.usedByName } : null,
    orderNo: l.orderNo,
    revokedAt: l.revokedAt,
    revokedBy: l.revokedBy,
    batchId: l.batchId,
    createdBy: l.createdBy,
    note: l.note,
  } satisfies Sendable<AdminLink>;
}
