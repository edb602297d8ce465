import { asc, eq } from 'drizzle-orm';
import { kindOf, needsApproval } from '@domain/kinds';
import type { Db } from './client';
import { newOrderNo } from '../orders/order-no';
import { events, orders, users } from './schema';

/**
 * Demo data for benchmarks and manual testing: `count` orders for the user with `subject`
 * (created if missing), spread over the seeded events and payment states.
 */
export async function seedDemoOrders(
  db: Db,
  input: { subject: string; email: string; name?: string; count: number; prefix?: string },
) {
  const [user] = await db
    .insert(users)
    .values({ subject: input.subject, email: input.email, name: input.name ?? null })
    .onConflictDoUpdate({ target: users.subject, set: { email: input.email } })
    .returning();
  // Every event but the badges (one badge per user), in a stable order.
  const all = (await db.select().from(events).orderBy(asc(events.slug))).filter((e) => !kindOf(e.type).issuesBadge);
  const statuses = ['pending', 'checking', 'paid', 'free', 'overdue', 'canceled'] as const;
  const now = Date.now();
  const rows = Array.from({ length: input.count }, (_, i): typeof orders.$inferInsert => {
    const event = all[i % all.length]!;
    const status = statuses[i % statuses.length]!;
    // One live order per user and event: extra ones are recorded as canceled.
    const live = i < all.length;
    return {
      orderNo: newOrderNo(input.prefix ?? 'TC'),
      userId: user!.id,
      eventId: event.id,
      registrationType: kindOf(event.type).registrationTypes[0],
      paymentStatus: live ? status : 'canceled',
      // Approval before payment: an order past choosing how to pay was approved.
      approvalStatus: needsApproval(kindOf(event.type), event)
        ? live && (status === 'checking' || status === 'paid')
          ? 'approved'
          : 'pending_approval'
        : null,
      amountCents: event.priceCentsTwd,
      unitPriceTwdCents: event.priceCentsTwd,
      totalTwdCents: event.priceCentsTwd,
      paymentType: event.priceCentsTwd > 0 ? 'TWD' : null,
      createdAt: new Date(now - i * 60_000),
    };
  });
  // One statement per 100 orders (the load fixtures seed hundreds of users this way). An order
  // number drawn twice (6 random characters: likely among tens of thousands) is drawn again.
  for (let i = 0; i < rows.length; i += 100) {
    let batch = rows.slice(i, i + 100);
    while (batch.length) {
      const done = new Set(
        (
          await db
            .insert(orders)
            .values(batch)
            .onConflictDoNothing({ target: orders.orderNo })
            .returning({ orderNo: orders.orderNo })
        ).map((r) => r.orderNo),
      );
      batch = batch
        .filter((r) => !done.has(r.orderNo))
        .map((r) => ({ ...r, orderNo: newOrderNo(input.prefix ?? 'TC') }));
    }
  }
  return db.select().from(orders).where(eq(orders.userId, user!.id));
}
