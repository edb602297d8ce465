import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { taipeiDay } from '@domain/reconciliation';
import type { Db } from '@server/db/client';
import { badges, bankImportLines, emails, orderEvents, orderPayments, orders } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { mailSettings, queueEventMails } from '@server/mail/outbox';
import { processOrderEvents } from '@server/orders/order-events';
import { applyBadge, getJson, json } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const ID = '00000000-0000-4000-8000-000000000000';
/** The transfers, statement import and refunds routes: each refuses a visitor (401) and a registrant (403). */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/v1/admin/transfers'],
  ['POST', '/api/v1/admin/orders/TC1/return-transfer', { message: 'x' }],
  ['POST', '/api/v1/admin/bank-imports/preview', {}],
  ['POST', '/api/v1/admin/bank-imports', {}],
  ['GET', '/api/v1/admin/bank-imports'],
  ['GET', `/api/v1/admin/bank-imports/${ID}`],
  ['POST', `/api/v1/admin/bank-imports/${ID}/confirm`, {}],
  ['POST', `/api/v1/admin/bank-lines/${ID}/assign`, { order_no: 'TC1' }],
  ['GET', '/api/v1/admin/refunds'],
  ['POST', `/api/v1/admin/refunds/${ID}/refunded`, { reference: 'R1' }],
];

const ORGANISER = 'olivia@example.com';
const DAY = 24 * 60 * 60 * 1000;
const HEADER = ['交易日期', '支出金額', '存入金額', '對方帳號', '摘要'];
/** HEADER as a Big5 line (bytes from Python's big5 codec, so the test needs no encoder). */
const BIG5_HEADER = [
  165, 230, 169, 246, 164, 233, 180, 193, 44, 164, 228, 165, 88, 170, 247, 195, 66, 44, 166, 115, 164, 74, 170, 247,
  195, 66, 44, 185, 239, 164, 232, 177, 98, 184, 185, 44, 186, 75, 173, 110, 13, 10,
];
/** 跨行轉入 ("interbank transfer in") in Big5. */
const BIG5_MEMO = [184, 243, 166, 230, 194, 224, 164, 74];

/** A statement as the bank exports it: a header, then date, debit, credit, account, memo. */
const csv = (rows: string[][], header = HEADER) =>
  [header, ...rows]
    .map((r) => r.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
    .join('\r\n');
const today = () => taipeiDay(new Date());
const credit = (amount: string, account: string, memo = '') => [today(), '', amount, account, memo];

describe.each(DATABASES)('back office: transfers, statement imports, refunds (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let organiser: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, { ORGANISER_EMAILS: ORGANISER });
    ({ token: organiser } = await signIn(app, ORGANISER, 'Olivia'));
  });

  const post = (path: string, body: unknown, token = organiser) => app.request(path, json(token, 'POST', body));

  /** A Professional badge order (TWD 1,000 or US$35) whose transfer is being checked. */
  async function transfer(email: string, digits: string, type: 'TWD' | 'USD' | 'atm' = 'TWD') {
    const { token } = await signIn(app, email, email.split('@')[0]);
    const order = await applyBadge(app, token);
    const payment =
      type === 'USD'
        ? { type, last_five_digits: digits, remitter: 'Amy Chen', sender_bank: 'First Bank' }
        : { type, last_five_digits: digits, remitter: 'Amy Chen' };
    const res = await app.request('/api/v1/demonstration_order', json(token, 'PUT', { payment }));
    expect(res.status).toBe(200);
    return { token, orderId: order.order_id, orderNo: order.order_no };
  }

  const orderRow = async (orderNo: string) => (await db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
  const paymentsOf = async (orderNo: string) =>
    db
      .select({
        method: orderPayments.method,
        currency: orderPayments.currency,
        amountCents: orderPayments.amountCents,
        status: orderPayments.status,
      })
      .from(orderPayments)
      .innerJoin(orders, eq(orders.id, orderPayments.orderId))
      .where(eq(orders.orderNo, orderNo));
  const eventsOf = async (orderNo: string) =>
    db
      .select({
        kind: orderEvents.kind,
        actor: orderEvents.actor,
        actorId: orderEvents.actorId,
        payload: orderEvents.payload,
      })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.orderNo, orderNo))
      .orderBy(orderEvents.id);

  /** POSTs a statement file (multipart) to the preview or import route. */
  function upload(
    path: string,
    content: string | Uint8Array,
    fields: Record<string, string> = {},
    name = 'statement.csv',
  ) {
    const form = new FormData();
    form.set('file', new File([content as BlobPart], name, { type: 'text/csv' }));
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return app.request(path, { method: 'POST', ...bearer(organiser), body: form });
  }
  /** Previews then imports a file with the preselected mapping; answers the import. */
  async function importFile(content: string | Uint8Array, fields: Record<string, string> = {}) {
    const preview = await upload('/api/v1/admin/bank-imports/preview', content, fields);
    expect(preview.status).toBe(200);
    const { mapping } = (await preview.json()).data;
    const res = await upload('/api/v1/admin/bank-imports', content, { mapping: JSON.stringify(mapping), ...fields });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()).data as {
      id: string;
      encoding: string;
      counts: Record<string, number>;
      lines: {
        id: string;
        line_no: number;
        outcome: string;
        reason: string | null;
        candidates: { order_no: string }[];
        paid_order: { order_no: string } | null;
        original: { import_id: string; outcome: string; paid_order: { order_no: string } | null } | null;
      }[];
    };
  }
  const confirm = async (importId: string, body: unknown = {}) => {
    const res = await post(`/api/v1/admin/bank-imports/${importId}/confirm`, body);
    expect(res.status).toBe(200);
    return (await res.json()) as {
      data: { line_no: number; result: string; order_no?: string; code?: string }[];
      meta: unknown;
    };
  };

  it('refuses every route to a visitor (401) and a registrant (403)', async () => {
    const { token } = await signIn(app, 'reg@example.com');
    for (const [method, path, body] of ROUTES) {
      const init = (t?: string): RequestInit =>
        body === undefined
          ? { method, ...(t ? bearer(t) : {}) }
          : {
              method,
              headers: { 'content-type': 'application/json', ...(t ? bearer(t).headers : {}) },
              body: JSON.stringify(body),
            };
      expect((await app.request(path, init())).status, `${method} ${path} as a visitor`).toBe(401);
      const registrant = await app.request(path, init(token));
      expect(registrant.status, `${method} ${path} as a registrant`).toBe(403);
      expect(await registrant.json()).toMatchObject({ code: 'forbidden' });
    }
  });

  it('lists transfers being checked with what the registrant declared', async () => {
    const amy = await transfer('amy@example.com', '12345');
    const ben = await transfer('ben@example.com', '67890', 'USD');
    const res = await getJson(app, '/api/v1/admin/transfers?lang=zh-TW', organiser);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        order_no: amy.orderNo,
        payment_type: 'TWD',
        remitter: 'Amy Chen',
        last_five_digits: '12345',
        currency: 'TWD',
        amount_cents: 100_000,
        email: 'amy@example.com',
        event_name: '專業人士識別證',
        payment_expires_at: expect.any(String),
        declared_at: expect.any(String),
      }),
      expect.objectContaining({
        order_no: ben.orderNo,
        payment_type: 'USD',
        sender_bank: 'First Bank',
        currency: 'USD',
        amount_cents: 3_500,
      }),
    ]);
  });

  describe('send back with a message (return_transfer)', () => {
    it('unpaid again with the details kept, the message shown and e-mailed; a lapsed deadline gets a new window', async () => {
      const amy = await transfer('amy@example.com', '12345');
      // The check took a while: the deadline has passed meanwhile.
      await db
        .update(orders)
        .set({ paymentExpiresAt: new Date(Date.now() - DAY) })
        .where(eq(orders.orderNo, amy.orderNo));
      const message = 'No transfer from an account ending 12345 has arrived. Please check the digits.';
      const res = await post(`/api/v1/admin/orders/${amy.orderNo}/return-transfer`, { message });
      expect(res.status).toBe(200);
      const body = (await res.json()).data;
      expect(body).toMatchObject({ order_no: amy.orderNo, result: 'returned' });
      expect(new Date(body.payment_expires_at).getTime()).toBeGreaterThan(Date.now() + 3 * DAY - 60_000);

      expect(await orderRow(amy.orderNo)).toMatchObject({
        paymentStatus: 'pending',
        paymentType: 'TWD',
        lastFiveDigits: '12345',
        remitter: 'Amy Chen',
        transferReturnedMessage: message,
      });
      expect((await eventsOf(amy.orderNo)).at(-1)).toEqual({
        kind: 'transfer_returned',
        actor: 'organiser',
        actorId: ORGANISER,
        payload: expect.objectContaining({
          message,
          declared: expect.objectContaining({ lastFiveDigits: '12345', amountCents: 100_000, currency: 'TWD' }),
        }),
      });
      // The badge, made when the transfer was declared (never issued), waits for the next one.
      expect(await db.select().from(badges).where(eq(badges.orderId, amy.orderId))).toEqual([]);
      // The registrant sees it with the order and can pay again.
      const mine = await getJson(app, '/api/v1/demonstration_order', amy.token);
      expect(mine.body.data).toMatchObject({
        payment_status: 'pending',
        payment: { transfer_returned_message: message, last_five_digits: '12345' },
      });
      // …and is e-mailed it, with a link to pay again.
      await processOrderEvents(db, queueEventMails(mailSettings(app.config)), { now: new Date(), limit: 100 });
      const [mail] = await db
        .select()
        .from(emails)
        .where(and(eq(emails.recipient, 'amy@example.com'), eq(emails.template, 'transfer_returned')));
      expect(mail!.text).toContain(message);
      expect(mail!.text).toContain('/pay');
      expect(mail!.subject).toContain(amy.orderNo);

      // A corrected transfer clears the message and is checked again.
      const fixed = await app.request(
        '/api/v1/demonstration_order',
        json(amy.token, 'PUT', { payment: { type: 'TWD', last_five_digits: '54321' } }),
      );
      expect(fixed.status).toBe(200);
      expect(await orderRow(amy.orderNo)).toMatchObject({ paymentStatus: 'checking', transferReturnedMessage: null });
      expect(await db.select().from(badges).where(eq(badges.orderId, amy.orderId))).toHaveLength(1);
    });

    it('needs a message; refuses an order whose transfer is not being checked', async () => {
      const amy = await transfer('amy@example.com', '12345');
      const empty = await post(`/api/v1/admin/orders/${amy.orderNo}/return-transfer`, { message: '   ' });
      expect(empty.status).toBe(400);
      expect((await post(`/api/v1/admin/orders/${amy.orderNo}/return-transfer`, {})).status).toBe(400);
      expect(
        (await post(`/api/v1/admin/orders/${amy.orderNo}/return-transfer`, { message: 'Wrong amount' })).status,
      ).toBe(200);
      const again = await post(`/api/v1/admin/orders/${amy.orderNo}/return-transfer`, { message: 'Again' });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ code: 'not_checking' });
      expect((await post('/api/v1/admin/orders/TC000/return-transfer', { message: 'x' })).status).toBe(404);
      expect((await eventsOf(amy.orderNo)).filter((e) => e.kind === 'transfer_returned')).toHaveLength(1);
    });
  });

  describe('bank statement import', () => {
    it('exact match: previewed, imported, confirmed in one action; a debit line is ignored; paid through the order core', async () => {
      const amy = await transfer('amy@example.com', '12345');
      const file = csv([credit('1,000', '0001234512345', '跨行轉入 王小明'), [today(), '30', '', '', '手續費']]);
      const preview = await upload('/api/v1/admin/bank-imports/preview', file);
      const previewed = (await preview.json()).data;
      expect(previewed).toMatchObject({
        file_name: 'statement.csv',
        encoding: 'utf-8',
        column_count: 5,
        remembered: false,
        mapping: {
          header_row: 1,
          date_column: 0,
          amount_mode: 'split',
          credit_column: 2,
          debit_column: 1,
          account_column: 3,
        },
      });
      expect(previewed.rows[0]).toEqual(HEADER);

      const imported = await importFile(file);
      expect(imported.lines.map((l) => [l.line_no, l.outcome, l.candidates.map((c) => c.order_no)])).toEqual([
        [2, 'matched', [amy.orderNo]],
        [3, 'debit', []],
      ]);
      expect(await orderRow(amy.orderNo)).toMatchObject({ paymentStatus: 'checking' }); // nothing paid yet

      const confirmed = await confirm(imported.id);
      expect(confirmed.data).toEqual([expect.objectContaining({ line_no: 2, result: 'paid', order_no: amy.orderNo })]);
      expect(await orderRow(amy.orderNo)).toMatchObject({ paymentStatus: 'paid' });
      expect(await paymentsOf(amy.orderNo)).toEqual([
        { method: 'TWD', currency: 'TWD', amountCents: 100_000, status: 'paid' },
      ]);
      expect((await eventsOf(amy.orderNo)).at(-1)).toEqual({
        kind: 'paid',
        actor: 'organiser',
        actorId: ORGANISER,
        payload: expect.objectContaining({
          source: 'bank_statement',
          importId: imported.id,
          lineNo: 2,
          fileName: 'statement.csv',
        }),
      });
      // The registrant's badge is issued; the import shows who the line paid and who confirmed it.
      expect((await getJson(app, '/api/v1/demonstration_order', amy.token)).body.data.payment_status).toBe('paid');
      const shown = (await getJson(app, `/api/v1/admin/bank-imports/${imported.id}`, organiser)).body.data;
      expect(shown.lines[0]).toMatchObject({
        outcome: 'paid',
        paid_order: { order_no: amy.orderNo },
        paid_by: ORGANISER,
      });
      expect(shown.counts).toEqual({ paid: 1, debit: 1 });
      const list = (await getJson(app, '/api/v1/admin/bank-imports', organiser)).body.data;
      expect(list).toEqual([expect.objectContaining({ id: imported.id, imported_by: ORGANISER, lines: 2, paid: 1 })]);
    });

    it('ambiguous: two orders with the same last five and amount; an organiser assigns the line by hand', async () => {
      const amy = await transfer('amy@example.com', '12345');
      const ben = await transfer('ben@example.com', '12345');
      const imported = await importFile(csv([credit('1000', '12345')]));
      expect(imported.lines[0]).toMatchObject({ outcome: 'ambiguous', reason: 'several_orders' });
      expect(imported.lines[0]!.candidates.map((c) => c.order_no).sort()).toEqual([amy.orderNo, ben.orderNo].sort());
      expect((await confirm(imported.id)).data).toEqual([]);
      expect((await orderRow(amy.orderNo)).paymentStatus).toBe('checking');

      const assigned = await post(`/api/v1/admin/bank-lines/${imported.lines[0]!.id}/assign`, {
        order_no: ben.orderNo,
      });
      expect(assigned.status).toBe(200);
      expect((await assigned.json()).data).toMatchObject({ result: 'paid', order_no: ben.orderNo });
      expect((await orderRow(ben.orderNo)).paymentStatus).toBe('paid');
      expect((await orderRow(amy.orderNo)).paymentStatus).toBe('checking');
      // One line pays one order.
      const twice = await post(`/api/v1/admin/bank-lines/${imported.lines[0]!.id}/assign`, { order_no: amy.orderNo });
      expect(twice.status).toBe(409);
      expect(await twice.json()).toMatchObject({ code: 'line_not_open' });
    });

    it('a wrong amount is never paid, not by confirming, not by hand', async () => {
      const amy = await transfer('amy@example.com', '12345');
      const imported = await importFile(csv([credit('900', '12345'), credit('1000', '12345', 'USD?')], HEADER));
      expect(imported.lines[0]).toMatchObject({
        outcome: 'unmatched',
        reason: 'amount_differs',
        candidates: [{ order_no: amy.orderNo }],
      });
      // (The second line, the right amount, matches: it is not confirmed here.)
      const byHand = await post(`/api/v1/admin/bank-lines/${imported.lines[0]!.id}/assign`, { order_no: amy.orderNo });
      expect(byHand.status).toBe(409);
      expect(await byHand.json()).toMatchObject({ code: 'amount_mismatch' });
      expect(await confirm(imported.id, { line_ids: [imported.lines[0]!.id] })).toMatchObject({ data: [] });
      expect((await orderRow(amy.orderNo)).paymentStatus).toBe('checking');
      expect(await paymentsOf(amy.orderNo)).toEqual([]);
    });

    it('a line imported twice is recognised: nothing is paid twice', async () => {
      const amy = await transfer('amy@example.com', '12345');
      const file = csv([credit('1,000', '12345'), credit('1,000', '99999')]);
      const first = await importFile(file);
      expect((await confirm(first.id)).data.map((r) => r.result)).toEqual(['paid']);
      // The same export again, and an overlapping one with one new line.
      const again = await importFile(file.replace(/\r\n/g, '\n'));
      expect(again.lines.map((l) => l.outcome)).toEqual(['already_imported', 'already_imported']);
      expect(again.lines[0]!.original).toMatchObject({
        import_id: first.id,
        outcome: 'paid',
        paid_order: { order_no: amy.orderNo },
      });
      expect(again.lines[1]!.original).toMatchObject({ import_id: first.id, outcome: 'unmatched' });
      expect((await confirm(again.id)).data).toEqual([]);
      const assign = await post(`/api/v1/admin/bank-lines/${again.lines[0]!.id}/assign`, { order_no: amy.orderNo });
      expect(assign.status).toBe(409);
      expect(await paymentsOf(amy.orderNo)).toHaveLength(1);
      expect(await db.select().from(bankImportLines).where(eq(bankImportLines.outcome, 'paid'))).toHaveLength(1);
    });

    it('reads a Big5 file (detected, or chosen), and remembers the column mapping for the next import', async () => {
      const amy = await transfer('amy@example.com', '24680');
      const data = new TextEncoder().encode(`${today()},,"NT$1,000",***24680,`);
      const big5 = new Uint8Array([...BIG5_HEADER, ...data, ...BIG5_MEMO, 0x0d, 0x0a]);
      const preview = (await (await upload('/api/v1/admin/bank-imports/preview', big5)).json()).data;
      expect(preview).toMatchObject({ encoding: 'big5', replaced: 0, remembered: false });
      expect(preview.rows[0]).toEqual(HEADER);
      expect(preview.rows[1][4]).toBe('跨行轉入');
      // The organiser reads the memo as well, and imports: the mapping is remembered for this format.
      const mapping = { ...preview.mapping, memo_columns: [3, 4] };
      const res = await upload('/api/v1/admin/bank-imports', big5, {
        encoding: 'big5',
        mapping: JSON.stringify(mapping),
      });
      expect(res.status).toBe(201);
      const imported = (await res.json()).data;
      expect(imported).toMatchObject({ encoding: 'big5' });
      expect(imported.lines[0]).toMatchObject({
        outcome: 'matched',
        memo: '***24680 / 跨行轉入',
        amount_cents: 100_000,
      });
      expect((await confirm(imported.id)).data).toEqual([
        expect.objectContaining({ result: 'paid', order_no: amy.orderNo }),
      ]);

      const next = (await (await upload('/api/v1/admin/bank-imports/preview', big5)).json()).data;
      expect(next).toMatchObject({ remembered: true, mapping: { memo_columns: [3, 4] } });
      // Forced to UTF-8, the organiser sees the damage (replacement characters) before importing.
      const forced = (await (await upload('/api/v1/admin/bank-imports/preview', big5, { encoding: 'utf-8' })).json())
        .data;
      expect(forced.replaced).toBeGreaterThan(0);
    });

    it('hand assignment of an unmatched line, with the amount check; USD remittances match in USD', async () => {
      const amy = await transfer('amy@example.com', '12345', 'USD');
      const { token: benToken } = await signIn(app, 'ben@example.com');
      const ben = await applyBadge(app, benToken); // unpaid, nothing declared
      const imported = await importFile(
        csv([credit('US$35.00', '12345'), credit('1,000', '', `ben ${ben.order_no}?`), credit('1,000', '11111')]),
      );
      expect(imported.lines.map((l) => [l.outcome, l.reason])).toEqual([
        ['matched', null],
        ['unmatched', 'no_last_five'],
        ['unmatched', 'no_order'],
      ]);
      expect((await confirm(imported.id)).data).toEqual([
        expect.objectContaining({ result: 'paid', order_no: amy.orderNo }),
      ]);
      expect(await paymentsOf(amy.orderNo)).toEqual([
        { method: 'USD', currency: 'USD', amountCents: 3_500, status: 'paid' },
      ]);

      // Ben paid without declaring: the organiser assigns the line to his order by hand.
      const line = imported.lines[1]!;
      expect((await post(`/api/v1/admin/bank-lines/${line.id}/assign`, { order_no: 'TC000' })).status).toBe(404);
      const res = await post(`/api/v1/admin/bank-lines/${line.id}/assign`, { order_no: ben.order_no });
      expect(res.status).toBe(200);
      expect(await orderRow(ben.order_no)).toMatchObject({
        paymentStatus: 'paid',
        paymentType: 'TWD',
        amountCents: 100_000,
      });
      expect((await eventsOf(ben.order_no)).at(-1)).toMatchObject({
        kind: 'paid',
        actor: 'organiser',
        actorId: ORGANISER,
      });
      // A paid order takes no second line.
      const third = await post(`/api/v1/admin/bank-lines/${imported.lines[2]!.id}/assign`, { order_no: ben.order_no });
      expect(third.status).toBe(409);
      expect(await third.json()).toMatchObject({ code: 'order_paid' });
    });

    it('a matched order paid meanwhile: its line is refused alone and stays open', async () => {
      const amy = await transfer('amy@example.com', '12345');
      const ben = await transfer('ben@example.com', '67890');
      const imported = await importFile(csv([credit('1,000', '12345'), credit('1,000', '67890')]));
      expect((await post(`/api/v1/admin/orders/${amy.orderNo}/mark-paid`, {})).status).toBe(200);
      const results = await confirm(imported.id);
      expect(results.data).toEqual([
        expect.objectContaining({ line_no: 2, result: 'refused', code: 'order_paid' }),
        expect.objectContaining({ line_no: 3, result: 'paid', order_no: ben.orderNo }),
      ]);
      expect(results.meta).toEqual({ paid: 1, refused: 1 });
      expect(await paymentsOf(amy.orderNo)).toHaveLength(1);
      const shown = (await getJson(app, `/api/v1/admin/bank-imports/${imported.id}`, organiser)).body.data;
      expect(shown.lines.map((l: { outcome: string }) => l.outcome)).toEqual(['matched', 'paid']);
    });

    it('refuses files and mappings it cannot read, with a clear 400, storing nothing', async () => {
      const file = csv([credit('1000', '12345')]);
      const cases: [Response | Promise<Response>, string][] = [
        [app.request('/api/v1/admin/bank-imports/preview', json(organiser, 'POST', {})), 'unsupported_media_type'],
        [upload('/api/v1/admin/bank-imports/preview', ''), 'empty_statement'],
        [
          upload('/api/v1/admin/bank-imports/preview', new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), {}, 'x.xlsx'),
          'not_csv',
        ],
        [upload('/api/v1/admin/bank-imports/preview', file, { encoding: 'latin1' }), 'validation_failed'],
        [upload('/api/v1/admin/bank-imports', file), 'validation_failed'],
        [upload('/api/v1/admin/bank-imports', file, { mapping: '{' }), 'invalid_json'],
        [
          upload('/api/v1/admin/bank-imports', file, { mapping: JSON.stringify({ header_row: 1 }) }),
          'validation_failed',
        ],
        [
          upload('/api/v1/admin/bank-imports', file, {
            mapping: JSON.stringify({
              header_row: 1,
              date_column: 0,
              amount_mode: 'signed',
              amount_column: 9,
              default_currency: 'TWD',
              memo_columns: [],
            }),
          }),
          'mapping_out_of_range',
        ],
      ];
      for (const [request, code] of cases) {
        const res = await request;
        expect(res.status, code).toBe(400);
        const body = await res.json();
        expect(body).toMatchObject({ code });
        expect(body.error).toBe(body.message);
      }
      expect(await db.select().from(bankImportLines)).toEqual([]);
      expect((await getJson(app, `/api/v1/admin/bank-imports/${ID}`, organiser)).status).toBe(404);
      expect((await getJson(app, '/api/v1/admin/bank-imports/nope', organiser)).status).toBe(404);
      expect((await post(`/api/v1/admin/bank-imports/${ID}/confirm`, {})).status).toBe(404);
    });
  });

  describe('refunds due', () => {
    it('lists refunds due; "refunded" records the reference, in the trail and on the order page', async () => {
      const amy = await transfer('amy@example.com', '12345');
      expect((await post(`/api/v1/admin/orders/${amy.orderNo}/mark-paid`, {})).status).toBe(200);
      expect((await post(`/api/v1/admin/orders/${amy.orderNo}/cancel`, { reason: 'Asked to cancel' })).status).toBe(
        200,
      );
      const list = await getJson(app, '/api/v1/admin/refunds', organiser);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          order_no: amy.orderNo,
          email: 'amy@example.com',
          amount_cents: 100_000,
          currency: 'TWD',
          reason: 'order_canceled',
          event_name: 'Professional badge',
          payment_id: expect.any(String),
        }),
      ]);
      const paymentId = list.body.data[0].payment_id as string;
      const noReference = await post(`/api/v1/admin/refunds/${paymentId}/refunded`, { reference: ' ' });
      expect(noReference.status).toBe(400);
      const done = await post(`/api/v1/admin/refunds/${paymentId}/refunded`, { reference: 'RF-20261124-001' });
      expect(done.status).toBe(200);
      expect((await done.json()).data).toEqual({
        payment_id: paymentId,
        result: 'refunded',
        refund_reference: 'RF-20261124-001',
      });
      expect((await eventsOf(amy.orderNo)).at(-1)).toEqual({
        kind: 'refunded',
        actor: 'organiser',
        actorId: ORGANISER,
        payload: expect.objectContaining({ paymentId, reference: 'RF-20261124-001' }),
      });
      const page = await getJson(app, `/api/v1/admin/orders/${amy.orderNo}`, organiser);
      expect(page.body.data.payments).toEqual([
        expect.objectContaining({ status: 'refunded', refund_reference: 'RF-20261124-001' }),
      ]);
      expect((await getJson(app, '/api/v1/admin/refunds', organiser)).body.data).toEqual([]);
      const twice = await post(`/api/v1/admin/refunds/${paymentId}/refunded`, { reference: 'again' });
      expect(twice.status).toBe(409);
      expect(await twice.json()).toMatchObject({ code: 'not_refund_due' });
      expect((await post(`/api/v1/admin/refunds/${ID}/refunded`, { reference: 'x' })).status).toBe(404);
    });
  });
});
