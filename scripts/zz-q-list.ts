import { openDatabase } from '@server/db/client';
import { seed } from '@server/db/seed';
import { seedDemoOrders } from '@server/db/demo';
import { listOrders } from '@server/orders/orders';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
const url = process.env.PGURL ?? '';
const database = await openDatabase({ url, dataDir: join(mkdtempSync(join(tmpdir(), 'q-list-')), 'pglite') });
const db = database.db;
await seed(db);
const ids: string[] = [];
for (let i = 0; i < 60; i++) {
  const rows = await seedDemoOrders(db, { subject: `s-${i}-${Math.random()}`, email: `x${i}-${Math.random()}@e.com`, count: 100 });
  ids.push(rows[0]!.userId);
}
const r: any = await db.execute(sql`select sum(length(row_to_json(e)::text)) as n, count(*) from events e`);
console.log('events json bytes', r.rows ?? r);
for (const round of [0, 1]) {
  const t0 = performance.now();
  for (const id of ids) await listOrders(db, id, { limit: 100, page: 1 });
  console.log(`listOrders: ${((performance.now() - t0) / ids.length).toFixed(2)} ms each`);
}
await database.close();
