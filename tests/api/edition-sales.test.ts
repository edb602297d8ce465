import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { editions, events, invoices } from '@server/db/schema';
import { applyBadge, getJson, json, paidBadgeByCard } from './fixtures';
import { DATABASES, seededApp, signIn, type TestApp } from './helpers';

/*
 * The back office's home (issue 21): what the current edition has sold, event by event — orders
 * that count, those settled, seats, the money in (less completed refunds) per currency — and the
 * e-invoices and meeting requests waiting.
 */
const ORGANISER = 'olivia@example.com';
const HOUR = 60 * 60 * 1000;

type SalesRow = { slug: string; live: number; issued: number; net_twd_cents: number; refunded_twd_cents: number };

describe.each(DATABASES)('edition sales on the back office home (%s)', (kind) => {
  let clock = new Date();
  const suite = seededApp(kind, { ORGANISER_EMAILS: ORGANISER }, { now: () => clock });
  let db: Db;
  let app: TestApp;
  let organiser: string;

  beforeEach(async () => {
    clock = new Date();
    ({ db, app } = suite);
    ({ token: organiser } = await signIn(app, ORGANISER, 'Olivia'));
  });

  const sales = async () => {
    const res = await getJson(app, '/api/v1/admin/summary', organiser);
    expect(res.status).toBe(200);
    return res.body.data.sales;
  };
  const badgeRow = async () => {
    const [badge] = await db.select({ slug: events.slug }).from(events).where(eq(events.type, 'badge_professional'));
    return ((await sales()).events as SalesRow[]).find((row) => row.slug === badge!.slug)!;
  };

  it('counts orders and the money in per event, less the refunds the gateway completed', async () => {
    const before = await sales();
    expect(before.edition).toMatchObject({ slug: expect.any(String), name_en: expect.any(String) });
    expect(await badgeRow()).toMatchObject({ live: 0, issued: 0, net_twd_cents: 0, refunded_twd_cents: 0 });

    const amy = await paidBadgeByCard(app, db, 'amy@example.com');
    await paidBadgeByCard(app, db, 'ben@example.com');
    // An unpaid application counts as live, not settled, and brings no money.
    const { token: cara } = await signIn(app, 'cara@example.com', 'Cara');
    await applyBadge(app, cara);
    expect(await badgeRow()).toMatchObject({ live: 3, issued: 2, net_twd_cents: 200_000, refunded_twd_cents: 0 });

    // A goodwill refund of TWD 300 after the nightly close: the net falls, the order stays settled.
    clock = new Date(clock.getTime() + 24 * HOUR);
    const refund = await app.request(
      `/api/v1/admin/payments/${amy.paymentId}/refund`,
      json(organiser, 'POST', { amount_cents: 30_000, reason: 'Goodwill' }),
    );
    expect(refund.status, await refund.clone().text()).toBe(200);
    expect(await badgeRow()).toMatchObject({ live: 3, issued: 2, net_twd_cents: 170_000, refunded_twd_cents: 30_000 });

    const after = await sales();
    const rows = after.events as SalesRow[];
    expect(after.totals).toEqual({
      live: rows.reduce((n, r) => n + r.live, 0),
      issued: rows.reduce((n, r) => n + r.issued, 0),
      net_twd_cents: 170_000,
      refunded_twd_cents: 30_000,
      net_usd_cents: 0,
      refunded_usd_cents: 0,
    });
    // Archived events leave the table; drafts stay (an organiser prepares them).
    await db
      .update(events)
      .set({ status: 'archived' })
      .where(eq(events.slug, rows.at(-1)!.slug));
    expect(((await sales()).events as SalesRow[]).map((r) => r.slug)).toEqual(rows.slice(0, -1).map((r) => r.slug));
  });

  it('counts the e-invoices the service refused', async () => {
    await paidBadgeByCard(app, db, 'amy@example.com');
    expect((await sales()).invoices_failed).toBe(0);
    await db.update(invoices).set({ status: 'failed' });
    expect((await sales()).invoices_failed).toBe(1);
  });

  it('is null while no edition is current (a fresh portal before its first edition)', async () => {
    await db.update(editions).set({ isCurrent: false });
    expect((await sales()) ?? null).toBeNull();
  });
});
