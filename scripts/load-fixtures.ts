/**
 * Fixtures of the load suites (scripts/burst.mjs, fault.mjs, soak.mjs; decision 024), written
 * straight into the configured database (DATABASE_URL, or PGlite under DATA_DIR before the server
 * opens it) so a thousand registrants cost seconds, not a thousand sign-ins:
 *
 *   tsx scripts/load-fixtures.ts burst --users N --seats S [--slug SLUG] --out FILE
 *   tsx scripts/load-fixtures.ts token --email E      (prints one token, for the page loads)
 *   tsx scripts/load-fixtures.ts orders --users N --orders M --out FILE
 *   tsx scripts/load-fixtures.ts check --slug SLUG [--acknowledged FILE]
 *
 * `check` prints, as JSON, what the database holds for the event: capacity, seats taken, live
 * orders, users with more than one live order, and which of the acknowledged order ids (a JSON
 * array in FILE) are missing.
 *
 * creates a free general event with S seats (registration open now), N users who each hold an
 * issued Professional badge (the event requires one), and writes to FILE `{ slug, tokens }`: one
 * credential per user, of the instances' identity mode (a portal session in OIDC mode, else an
 * access token signed with the development identity service's key in DATA_DIR).
 * `orders` (the cold case of `npm run bench`): N users who each hold M orders (the demo orders of
 * src/server/db/demo.ts, spread over the events and statuses), and writes to FILE `{ tokens }`,
 * one credential per user.
 *
 * Development only: it refuses to run with IDENTITY_URL set.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { getConfig } from '@server/config';
import { badges, events, orders, users } from '@server/db/schema';
import { seedDemoOrders } from '@server/db/demo';
import { seed } from '@server/db/seed';
import { DEV_ISSUER, devSubject, loadSigner } from '@server/identity/dev-identity';
import { newOrderNo } from '@server/orders/order-no';
import { createSessionStore } from '@server/sessions/sessions';
import type { Db } from '@server/db/client';
import { openPortalDatabase } from './lib';

const USAGE =
  'usage: tsx scripts/load-fixtures.ts burst --users N --seats S [--slug SLUG] --out FILE | token --email E' +
  ' | orders --users N --orders M --out FILE';

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    users: { type: 'string', default: '1000' },
    orders: { type: 'string', default: '100' },
    seats: { type: 'string', default: '100' },
    slug: { type: 'string' },
    out: { type: 'string' },
    email: { type: 'string' },
    acknowledged: { type: 'string' },
    'ttl-seconds': { type: 'string', default: '7200' },
  },
});
const count = Number(values.users);
const seats = Number(values.seats);
const config = getConfig();
if (!config.devIdentity) {
  console.error('error: load fixtures sign tokens with the development identity key; unset IDENTITY_URL');
  process.exit(1);
}

type Person = { subject: string; email: string; name: string | null };

/**
 * The credential each fixture user sends, of the identity mode the instances run in (decision
 * 019): in OIDC mode (the default) a portal session, started in the database as a sign-in would
 * start it (the instances share SESSION_SECRET); in agency mode an access token as the dev
 * identity service issues it, signed with the key the instances verify with (DATA_DIR).
 */
async function credentials(db: Db): Promise<(p: Person) => Promise<string>> {
  const ttl = Number(values['ttl-seconds']);
  if (config.IDENTITY_MODE === 'oidc') {
    const sessions = createSessionStore({
      db,
      secret: config.SESSION_SECRET,
      idleSeconds: ttl,
      absoluteSeconds: ttl,
    });
    return async (p) => {
      const [user] = await db
        .insert(users)
        .values({ subject: p.subject, email: p.email, name: p.name })
        .onConflictDoUpdate({ target: users.subject, set: { email: p.email } })
        .returning({ id: users.id, subject: users.subject, email: users.email, name: users.name });
      return (await sessions.create(user!)).token;
    };
  }
  const signer = await loadSigner(join(config.dataDir, 'dev-identity-key.json'));
  const iat = Math.floor(Date.now() / 1000);
  return (p) =>
    new SignJWT({ sub: p.subject, email: p.email, name: p.name })
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'at+jwt' })
      .setIssuer(DEV_ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .sign(signer.privateKey);
}

if (command === 'token' && values.email) {
  const database = await openPortalDatabase(config);
  try {
    const issue = await credentials(database.db);
    console.log(await issue({ subject: devSubject(values.email), email: values.email, name: null }));
  } finally {
    await database.close();
  }
  process.exit(0);
}
if (command === 'check' && values.slug) {
  const database = await openPortalDatabase(config);
  try {
    const rows = (q: ReturnType<typeof sql>) =>
      database.db.execute(q).then((r) => (r as unknown as { rows: Record<string, unknown>[] }).rows);
    const [event] = await rows(sql`select id, capacity, seats_taken from events where slug = ${values.slug}`);
    if (!event) throw new Error(`no event ${values.slug}`);
    const live = await rows(
      sql`select id, user_id from orders where event_id = ${event.id} and payment_status not in ('canceled', 'overdue')`,
    );
    const perUser = new Map<string, number>();
    for (const o of live) perUser.set(String(o.user_id), (perUser.get(String(o.user_id)) ?? 0) + 1);
    const acknowledged: string[] = values.acknowledged ? JSON.parse(readFileSync(values.acknowledged, 'utf8')) : [];
    const present = new Set(live.map((o) => String(o.id)));
    console.log(
      JSON.stringify({
        capacity: event.capacity,
        seatsTaken: event.seats_taken,
        liveOrders: live.length,
        usersWithSeveralLiveOrders: [...perUser.values()].filter((n) => n > 1).length,
        acknowledged: acknowledged.length,
        acknowledgedMissing: acknowledged.filter((id) => !present.has(id)).length,
      }),
    );
  } finally {
    await database.close();
  }
  process.exit(0);
}
if (command === 'orders' && values.out) {
  const perUser = Number(values.orders);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(perUser) || perUser < 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const database = await openPortalDatabase(config);
  try {
    await seed(database.db);
    const run = randomBytes(4).toString('hex');
    const people: Person[] = Array.from({ length: count }, (_, i) => {
      const email = `cold-${run}-${i}@example.com`;
      return { email, subject: devSubject(email), name: `Cold ${i}` };
    });
    for (const p of people) await seedDemoOrders(database.db, { ...p, name: p.name!, count: perUser });
    const issue = await credentials(database.db);
    const tokens: string[] = [];
    for (let i = 0; i < people.length; i += 50) tokens.push(...(await Promise.all(people.slice(i, i + 50).map(issue))));
    writeFileSync(values.out, JSON.stringify({ tokens }));
    console.log(`${count} users with ${perUser} orders each; tokens in ${values.out}`);
  } finally {
    await database.close();
  }
  process.exit(0);
}
if (command !== 'burst' || !values.out || !Number.isInteger(count) || count < 1 || !Number.isInteger(seats)) {
  console.error(USAGE);
  process.exit(2);
}
const database = await openPortalDatabase(config);
const { db } = database;
try {
  await seed(db);
  const slug = values.slug ?? `burst-${Date.now().toString(36)}`;
  const [template] = await db.select().from(events).where(eq(events.slug, 'opening-forum'));
  const [badgeEvent] = await db.select().from(events).where(eq(events.slug, 'badge-professional'));
  if (!template || !badgeEvent) throw new Error('the seeded events are missing');
  const now = new Date();
  const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = template;
  const [event] = await db
    .insert(events)
    .values({
      ...copy,
      slug,
      nameEn: `Load test ${slug}`,
      nameZh: `負載測試 ${slug}`,
      capacity: seats,
      seatsTaken: 0,
      priceCentsTwd: 0,
      priceCentsUsd: 0,
      requiresApproval: false,
      registerStartAt: new Date(now.getTime() - 3600_000),
      registerEndAt: new Date(now.getTime() + 7 * 86400_000),
    })
    .returning();

  // Users with an issued badge, in batches (one statement per batch and table).
  const run = randomBytes(4).toString('hex');
  const people = Array.from({ length: count }, (_, i) => {
    const email = `load-${run}-${i}@example.com`;
    return { email, subject: devSubject(email), name: `Load ${i}` };
  });
  for (let i = 0; i < people.length; i += 500) {
    const batch = people.slice(i, i + 500);
    const userRows = await db
      .insert(users)
      .values(batch.map((p) => ({ subject: p.subject, email: p.email, name: p.name })))
      .returning({ id: users.id, email: users.email });
    const orderRows = await db
      .insert(orders)
      .values(
        userRows.map((u) => ({
          orderNo: newOrderNo(config.ORDER_PREFIX, now),
          userId: u.id,
          eventId: badgeEvent.id,
          registrationType: 'BADGE_PROFESSIONAL' as const,
          paymentStatus: 'paid' as const,
          amountCents: badgeEvent.priceCentsTwd,
          unitPriceTwdCents: badgeEvent.priceCentsTwd,
          totalTwdCents: badgeEvent.priceCentsTwd,
          paymentType: 'TWD' as const,
          badgeEmailKey: u.email,
          paidAt: now,
        })),
      )
      .returning({ id: orders.id, userId: orders.userId });
    const emailOf = new Map(userRows.map((u) => [u.id, u.email]));
    await db.insert(badges).values(
      orderRows.map((o) => ({
        userId: o.userId,
        orderId: o.id,
        emailKey: emailOf.get(o.userId)!,
        identity: 'PROFESSIONAL' as const,
        nameEn: 'Load Test',
        pickupCode: createHash('sha256').update(`${run}:${o.id}`).digest('base64url').slice(0, 24),
      })),
    );
  }

  const issue = await credentials(db);
  const tokens: string[] = [];
  for (let i = 0; i < people.length; i += 50) tokens.push(...(await Promise.all(people.slice(i, i + 50).map(issue))));
  writeFileSync(values.out, JSON.stringify({ slug, eventId: event!.id, seats, tokens }));
  console.log(`event ${slug}: ${seats} seats; ${count} badge holders; tokens in ${values.out}`);
} finally {
  await database.close();
}
