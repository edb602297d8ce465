import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@server/db/client';
import { badges, devContentWorks, events, orders, users } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { devSubject } from '@server/identity/dev-identity';
import { newOrderNo } from '@server/orders/order-no';
import { applyBadge, json, PNG, upload } from './fixtures';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/** Splits a CSV file into rows of fields (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe.each(DATABASES)('back office: exports (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let app: TestApp;
  let olivia: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(db);
    app = await createTestApp(database, { ORGANISER_EMAILS: 'olivia@example.com' });
    ({ token: olivia } = await signIn(app, 'olivia@example.com', 'Olivia'));
  });

  const download = async (path: string) => {
    const res = await app.request(path, bearer(olivia));
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const csv = async (path: string) => {
    const { res, bytes } = await download(path);
    expect(res.status, path).toBe(200);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return { res, rows: parseCsv(bytes.subarray(3).toString('utf8')) };
  };
  const xlsx = async (path: string) => {
    const { res, bytes } = await download(path);
    expect(res.status, path).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    const rows: ExcelJS.CellValue[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    return { res, sheet, rows };
  };

  /** A Market early-bird registration with two copyright contacts, a logo, and a company name that looks like a formula. */
  async function exhibitor(email: string, companyEn: string) {
    const { token } = await signIn(app, email, 'Amy Lin');
    const [work] = await db
      .insert(devContentWorks)
      .values({
        ownerSubject: devSubject(email),
        ownerEmail: email,
        genre: 'piece',
        categoryId: 2,
        titleEn: 'River Town',
        titleZh: '河城',
      })
      .returning({ id: devContentWorks.id });
    const logo = (await (
      await upload(app, token, { bytes: PNG, name: '標誌.png', type: 'image/png' }, 'company_logo')
    ).json()) as {
      uid: string;
    };
    const contact = (n: number) => ({
      name_zh: `聯絡人${n}`,
      name_en: `Contact ${n}`,
      phone: '+886-912-345-678',
      email: `c${n}@example.com`,
    });
    const res = await app.request(
      '/api/v1/orders?event=market-earlybird',
      json(token, 'POST', {
        agree_terms: true,
        agree_disclosure: true,
        market_identity: 1,
        selected_contents: [work!.id],
        company_name_zh: '港灣影業',
        company_name_en: companyEn,
        company_profile_zh: '專注華語劇集，"好故事"，逗號,與換行\n第二行。',
        company_industry: 3,
        company_business_category: [1, 2],
        company_country: 'TWN',
        company_logo_file_id: logo.uid,
        copyright_contacts: [contact(1), contact(2)],
        contact_name: 'Amy Lin',
        contact_title: 'Producer',
        contact_phone: '886-2-1234-5678',
        contact_email: email,
      }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { order_no: string };
  }

  it('orders as CSV: UTF-8 with a BOM, the header row, one row per order; formulas neutralised; Chinese intact', async () => {
    const market = await exhibitor('amy@example.com', '=HYPERLINK("http://evil.example","click")');
    const { token } = await signIn(app, 'ben@example.com', '陳小明');
    const badge = await applyBadge(app, token);

    const { res, rows } = await csv('/api/v1/admin/exports/orders.csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="tccf-orders-all-events-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const [header, ...data] = rows;
    expect(header!.slice(0, 6)).toEqual([
      'Order number',
      'Placed (GMT+8)',
      'Event',
      'Registration type',
      'Registrant',
      'Registrant e-mail',
    ]);
    expect(data).toHaveLength((await db.select().from(orders)).length);
    const byNo = new Map(data.map((r) => [r[0], Object.fromEntries(header!.map((h, i) => [h, r[i]]))]));
    expect(byNo.get(market.order_no)).toMatchObject({
      Company: `'=HYPERLINK("http://evil.example","click")`,
      'Payment status': 'Free',
      'Registration type': 'Market early-bird',
    });
    expect(byNo.get(badge.order_no)).toMatchObject({
      Registrant: '陳小明',
      'Payment status': 'Unpaid',
      Currency: 'TWD',
      'Amount due': '1000',
      'Total (USD)': '35.00',
    });
    expect(byNo.get(badge.order_no)!['Placed (GMT+8)']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

    // In Chinese: headers and names in Chinese, the file still UTF-8 with its BOM.
    const zh = await csv('/api/v1/admin/exports/orders.csv?lang=zh-TW&event=market-earlybird');
    expect(zh.res.headers.get('content-disposition')).toMatch(/filename="tccf-orders-market-earlybird-/);
    expect(zh.rows[0]!.slice(0, 3)).toEqual(['訂單編號', '下單時間（GMT+8）', '活動']);
    expect(zh.rows.slice(1).map((r) => r[0])).toEqual([market.order_no]);
    expect(zh.rows[1]![2]).toBe('TCCF 市場展早鳥報名');
  });

  it('the same orders as XLSX: the library opens it, with the same rows; text stays text, amounts are numbers', async () => {
    const market = await exhibitor('amy@example.com', '=1+2');
    const { token } = await signIn(app, 'ben@example.com', 'Ben');
    await applyBadge(app, token);
    const fromCsv = (await csv('/api/v1/admin/exports/orders.csv')).rows;
    const { res, rows, sheet } = await xlsx('/api/v1/admin/exports/orders.xlsx');
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(sheet.name).toBe('Orders');
    expect(rows[0]).toEqual(fromCsv[0]);
    expect(rows.map((r) => r[0])).toEqual(fromCsv.map((r) => r[0]));
    const header = rows[0] as string[];
    const marketRow = rows.find((r) => r[0] === market.order_no)!;
    const company = marketRow[header.indexOf('Company')];
    expect(company).toBe('=1+2'); // a string cell, never a formula
    const badgeRow = rows.slice(1).find((r) => r[0] !== market.order_no)!;
    expect(badgeRow[header.indexOf('Amount due')]).toBe(1000);
    expect(badgeRow[header.indexOf('Placed (GMT+8)')]).toBeInstanceOf(Date);
  });

  it('registrations with their form fields: one column per field, lists in numbered columns, files by name', async () => {
    const market = await exhibitor('amy@example.com', 'Harbour Pictures');
    const { rows } = await csv('/api/v1/admin/exports/registrations.csv?event=market-earlybird');
    const [header, row] = rows as [string[], string[]];
    const get = (h: string) => {
      expect(header, h).toContain(h);
      return row[header.indexOf(h)];
    };
    expect(rows).toHaveLength(2);
    expect(get('Order number')).toBe(market.order_no);
    expect(get('Company name (Chinese)')).toBe('港灣影業');
    expect(get('Company profile (Chinese)')).toBe('專注華語劇集，"好故事"，逗號,與換行\n第二行。');
    expect(get('Industry')).toBe('Production company');
    expect(get('Business categories')).toBe('Production, Distribution');
    expect(get('Country or region')).toBe('Taiwan');
    expect(get('Company logo')).toBe('標誌.png');
    expect(get('Contact 1: Name (Chinese)')).toBe('聯絡人1');
    expect(get('Contact 2: E-mail')).toBe('c2@example.com');
    expect(get('Contact 2: Phone')).toBe(`'+886-912-345-678`);
    expect(get('Contact name')).toBe('Amy Lin');
    expect(get('Works')).toBe('River Town');
    expect(header).not.toContain('Contact 3: E-mail');
    expect(header).not.toContain('Story genre');

    const zh = await xlsx('/api/v1/admin/exports/registrations.xlsx?event=market-earlybird&lang=zh-TW');
    const zhHeader = zh.rows[0] as string[];
    expect(zhHeader).toContain('公司中文名稱');
    expect(zh.rows[1]![zhHeader.indexOf('作品')]).toBe('河城');
    expect(zh.rows[1]![zhHeader.indexOf('產業類別')]).toBe('製作公司');
  });

  it('badges with their pick-up times; an unknown file or event is 404', async () => {
    const { token } = await signIn(app, 'ben@example.com', 'Ben');
    const badge = await applyBadge(app, token);
    // The transfer confirmed by the organiser: the badge is issued; the desk picks it up.
    const paid = await app.request(`/api/v1/admin/orders/${badge.order_no}/mark-paid`, json(olivia, 'POST', {}));
    expect(paid.status).toBe(200);
    const [row] = await db.select().from(badges);
    await db
      .update(badges)
      .set({ pickedUpAt: new Date('2026-11-04T01:30:00Z') })
      .where(eq(badges.id, row!.id));
    const { rows } = await csv('/api/v1/admin/exports/badges.csv?event=badge-professional');
    const [header, line] = rows as [string[], string[]];
    expect(rows).toHaveLength(2);
    expect(line[header.indexOf('Order number')]).toBe(badge.order_no);
    expect(line[header.indexOf('Picked up (GMT+8)')]).toBe('2026-11-04 09:30');
    expect(line[header.indexOf('Badge identity')]).toBe('Professional');
    expect(line[header.indexOf('Printed badge information: English name')]).toBe('Ming Wang');
    expect(line[header.indexOf('Payment status')]).toBe('Paid');
    expect((await csv('/api/v1/admin/exports/badges.csv?event=badge-free')).rows).toHaveLength(1);
    expect((await download('/api/v1/admin/exports/people.csv')).res.status).toBe(404);
    expect((await download('/api/v1/admin/exports/orders.pdf')).res.status).toBe(404);
    expect((await download('/api/v1/admin/exports/orders.csv?event=nope')).res.status).toBe(404);
    expect((await download('/api/v1/admin/exports/orders.csv?color=red')).res.status).toBe(400);
  });

  it('reads a large export page by page, each order once', async () => {
    const [event] = await db.select().from(events).where(eq(events.slug, 'opening-forum'));
    const people = await db
      .insert(users)
      .values(Array.from({ length: 1_201 }, (_, i) => ({ subject: `bulk-${i}`, email: `bulk-${i}@example.com` })))
      .returning({ id: users.id });
    // Same creation time for many rows: the pages must still neither skip nor repeat any.
    const at = new Date('2026-11-01T00:00:00Z');
    await db.insert(orders).values(
      people.map((p, i) => ({
        orderNo: newOrderNo('TE'),
        userId: p.id,
        eventId: event!.id,
        registrationType: 'EVENT_GENERAL' as const,
        paymentStatus: 'free' as const,
        createdAt: new Date(at.getTime() + Math.floor(i / 300)),
      })),
    );
    const { rows } = await csv('/api/v1/admin/exports/orders.csv?event=opening-forum');
    expect(rows).toHaveLength(1 + 1_201);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(1_201);
    const x = await xlsx('/api/v1/admin/exports/orders.xlsx?event=opening-forum');
    expect(x.rows).toHaveLength(1 + 1_201);
  });
});
