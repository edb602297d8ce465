import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { newOrderNo } from '../services/order-no';
import { events, orders, payments, users } from './schema';

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
  const all = await db.select().from(events);
  const statuses = ['pending', 'checking', 'paid', 'free', 'overdue', 'canceled'] as const;
  for (let i = 0; i < input.count; i++) {
    const event = all[i % all.length]!;
    const status = statuses[i % statuses.length]!;
    // One live order per user and event: extra ones are recorded as canceled.
    const live = i < all.length;
    const [order] = await db
      .insert(orders)
      .values({
        orderNo: newOrderNo(input.prefix ?? 'TC'),
        userId: user!.id,
        eventId: event.id,
        registrationType: 'EVENT_GENERAL',
        paymentStatus: live ? status : 'canceled',
        approvalStatus: event.requiresApproval ? 'pending_approval' : null,
        amountCents: event.priceCentsTwd,
        createdAt: new Date(Date.now() - i * 60_000),
      })
      .returning();
    if (event.priceCentsTwd > 0) {
      await db.insert(payments).values({
        orderId: order!.id,
        type: 'TWD',
        status: order!.paymentStatus,
        amountTwd: event.priceCentsTwd,
        unitPriceTwd: event.priceCentsTwd,
      });
    }
  }
  return db.select().from(orders).where(eq(orders.userId, user!.id));
}
