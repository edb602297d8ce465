import type { Context } from 'hono';
import type { AdminEdition, AdminEditionDetail, Data, PublicEdition, Sendable } from '@domain/contract';
import { EditionCreate, EditionSettingsPatch, NextEdition, PickupScheduleInput } from '@domain/editions';
import { listPickupSlots } from '../../badges/pickup-schedule';
import {
  createEdition,
  currentEdition,
  defaultsByField,
  effectiveSettings,
  findEdition,
  findEditionBySlug,
  listEditions,
  makeCurrent,
  replacePickupSchedule,
  startNextEdition,
  updateEditionSettings,
  type Edition,
  type EditionIssue,
  type EditionWrite,
} from '../../editions/editions';
import { eventImagePath } from '../../events/event-images';
import type { ApiApp, Env, RouteContext } from '../context';
import { badRequest, notFound } from '../errors';
import { pickupSlotView } from '../views';
import { requireRight } from './admin';

/** The badge page's default badge-rights image (public/badge-rights.svg). */
const DEFAULT_BADGE_RIGHTS_IMAGE = '/badge-rights.svg';
const badgeRightsImage = (e: Edition) =>
  e.badgeRightsFileId ? eventImagePath(e.badgeRightsFileId, 1280) : DEFAULT_BADGE_RIGHTS_IMAGE;

/** Field issues: `400 validation_failed`, each with its snake_case path (`0.closes_at` for a schedule row). */
function refused(issues: EditionIssue[]): never {
  const wire = issues.map((i) => ({
    path: i.path.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
    code: i.code,
    message: i.message,
  }));
  throw badRequest('validation_failed', wire.map((i) => `${i.path}: ${i.message}`).join('; '), { issues: wire });
}

/**
 * Editions (issue 21, decisions 049 and 050): the public edition (`GET /edition`: what
 * registrants see of the current one) and, under the organiser gate with the `edition` right,
 * the editions, their settings with history, the next edition, and the pick-up schedule.
 */
export function adminEditionRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps } = ctx;
  const edition = requireRight('edition');
  // Reading the editions is every reader's (a viewer sees the settings read-only); changing them is `edition`.
  const read = requireRight('read');
  const by = (c: Context<Env>) => c.get('user').email;

  // `?edition={slug}`: that edition, current or past (a past edition's order shows its own settings).
  app.get('/edition', async (c) => {
    const slug = c.req.query('edition');
    const e = slug ? await findEditionBySlug(deps.db, slug) : await currentEdition(deps.db);
    if (!e) throw notFound('Edition');
    const zh = c.get('locale') === 'zh-TW';
    const { venueMapUrl, bank } = effectiveSettings(e, deps.config);
    return ctx.send(c, {
      data: {
        slug: e.slug,
        name: zh ? e.nameZh : e.nameEn,
        timeZone: e.timeZone,
        venueMapUrl,
        badgeRightsImage: badgeRightsImage(e),
        contactEmail: e.contactEmail,
        transfer: {
          name: zh ? bank.nameZh : bank.name,
          code: bank.code,
          accountName: zh ? bank.accountNameZh : bank.accountName,
          accountNumber: bank.accountNumber,
          swift: bank.swift,
        },
      },
    } satisfies Sendable<Data<PublicEdition>>);
  });

  const view = (e: Edition, events: number) =>
    ({
      id: e.id,
      slug: e.slug,
      nameEn: e.nameEn,
      nameZh: e.nameZh,
      isCurrent: e.isCurrent,
      timeZone: e.timeZone,
      venueMapUrl: e.venueMapUrl,
      contactEmail: e.contactEmail,
      badgeRightsFileId: e.badgeRightsFileId,
      badgeRightsImage: badgeRightsImage(e),
      bankName: e.bankName,
      bankNameZh: e.bankNameZh,
      bankCode: e.bankCode,
      bankAccountName: e.bankAccountName,
      bankAccountNameZh: e.bankAccountNameZh,
      bankAccountNumber: e.bankAccountNumber,
      bankSwiftCode: e.bankSwiftCode,
      defaults: defaultsByField(deps.config),
      events,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
    }) satisfies Sendable<AdminEdition>;

  const detail = async (c: Context<Env>, slug: string, status: 200 | 201 = 200) => {
    const found = await findEdition(deps.db, slug);
    if (!found) throw notFound('Edition');
    return ctx.send(
      c,
      {
        data: {
          ...view(found.edition, found.events),
          changes: found.changes.map((ch) => ({
            id: ch.id,
            changedBy: ch.changedBy,
            action: ch.action,
            createdAt: ch.createdAt,
            changes: ch.changes as Record<string, unknown>,
          })),
        },
      } satisfies Sendable<Data<AdminEditionDetail>>,
      status,
    );
  };
  const answer = (c: Context<Env>, result: EditionWrite | undefined, status: 200 | 201 = 200) => {
    if (!result) throw notFound('Edition');
    if (result.kind === 'invalid') refused(result.issues);
    return detail(c, result.edition.slug, status);
  };

  app.get('/admin/editions', read, async (c) => {
    const rows = await listEditions(deps.db);
    return ctx.send(c, { data: rows.map((r) => view(r.edition, r.events)) } satisfies Sendable<Data<AdminEdition[]>>);
  });

  app.post('/admin/editions', edition, async (c) => {
    const body = await ctx.readJson(c, EditionCreate);
    return answer(c, await createEdition(deps.db, body, by(c), deps.config, ctx.now()), 201);
  });

  app.post('/admin/editions/next', edition, async (c) => {
    const body = await ctx.readJson(c, NextEdition);
    return answer(c, await startNextEdition(deps.db, body, by(c), ctx.now()), 201);
  });

  app.get('/admin/editions/:slug', read, (c) => detail(c, c.req.param('slug')));

  app.patch('/admin/editions/:slug', edition, async (c) => {
    const patch = await ctx.readJson(c, EditionSettingsPatch);
    return answer(c, await updateEditionSettings(deps.db, c.req.param('slug'), patch, by(c), ctx.now()));
  });

  app.post('/admin/editions/:slug/make-current', edition, async (c) => {
    const made = await makeCurrent(deps.db, c.req.param('slug'), by(c), ctx.now());
    return answer(c, made && { kind: 'ok', edition: made });
  });

  app.put('/admin/pickup-schedule', edition, async (c) => {
    const rows = await ctx.readJson(c, PickupScheduleInput);
    const result = await replacePickupSchedule(deps.db, rows, by(c), ctx.now());
    if (result.kind === 'invalid') refused(result.issues);
    const slots = await listPickupSlots(deps.db);
    return ctx.send(c, { data: slots.map((s) => pickupSlotView(s, c.get('locale'))) });
  });
}
