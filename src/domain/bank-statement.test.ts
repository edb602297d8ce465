import { describe, expect, it } from 'vitest';
import {
  decodeStatement,
  detectDelimiter,
  formatSignature,
  lastFiveOf,
  lineKeys,
  parseAmount,
  parseCsv,
  parseCurrency,
  parseDate,
  pickMapping,
  readStatement,
  StatementMapping,
  suggestMapping,
  type StatementMapping as Mapping,
} from './bank-statement';
import { check } from './validation';

/** "交易日期,存入,備註" in Big5 (bytes written out, so the test does not depend on an encoder). */
const BIG5_HEADER = [
  0xa5, 0xe6, 0xa9, 0xf6, 0xa4, 0xe9, 0xb4, 0xc1, 0x2c, 0xa6, 0x73, 0xa4, 0x4a, 0x2c, 0xb3, 0xc6, 0xb5, 0xf9,
];

describe('decoding', () => {
  it('reads UTF-8, with or without a byte-order mark', () => {
    const text = '日期,金額\n2026/11/20,1000';
    const plain = new TextEncoder().encode(text);
    expect(decodeStatement(plain)).toEqual({ text, encoding: 'utf-8', replaced: 0 });
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...plain]);
    expect(decodeStatement(bom).text.replace(/^\uFEFF/, '')).toBe(text);
  });

  it('tells Big5 from UTF-8 (auto), or decodes as the organiser chose', () => {
    const bytes = new Uint8Array([...BIG5_HEADER, 0x0a]);
    expect(decodeStatement(bytes)).toEqual({ text: '交易日期,存入,備註\n', encoding: 'big5', replaced: 0 });
    expect(decodeStatement(bytes, 'big5').text).toBe('交易日期,存入,備註\n');
    // Forced to UTF-8, Big5 bytes come out as replacement characters, and the count says so.
    expect(decodeStatement(bytes, 'utf-8').replaced).toBeGreaterThan(0);
  });

  it("reads Excel's UTF-16 text files by their byte-order mark", () => {
    const text = '日期\t金額';
    const units = [...text].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]);
    expect(decodeStatement(new Uint8Array([0xff, 0xfe, ...units]))).toMatchObject({ text, encoding: 'utf-16le' });
  });
});

describe('CSV', () => {
  it('splits quoted fields with delimiters, doubled quotes and line breaks; keeps empty lines as records', () => {
    const rows = parseCsv('a,"b, c","say ""hi"""\r\n\r\n1,"two\nlines",3\n');
    expect(rows).toEqual([['a', 'b, c', 'say "hi"'], [''], ['1', 'two\nlines', '3']]);
  });

  it('unwraps Excel\'s ="00123" and drops a byte-order mark', () => {
    expect(parseCsv('\uFEFFacct,amt\n="0012345",1')).toEqual([
      ['acct', 'amt'],
      ['0012345', '1'],
    ]);
  });

  it('detects tab and semicolon delimiters', () => {
    expect(detectDelimiter('a\tb\tc\n1\t2\t3')).toBe('\t');
    expect(detectDelimiter('a;b;c\n1;"2;5";3')).toBe(';');
    expect(detectDelimiter('date,amount\n2026/11/20,"1,000"')).toBe(',');
  });
});

describe('values', () => {
  it.each([
    ['1,000', 100_000, false, null],
    ['NT$1,000', 100_000, false, 'TWD'],
    ['1000.00', 100_000, false, null],
    ['１，０００', 100_000, false, null],
    ['＄２５０', 25_000, false, null],
    ['(500)', 50_000, true, null],
    ['-500', 50_000, true, null],
    ['500-', 50_000, true, null],
    ['US$35.5', 3_550, false, 'USD'],
    ['1,200 元', 120_000, false, 'TWD'],
    ['0', 0, false, null],
  ])('amount %s', (cell, cents, negative, currency) => {
    expect(parseAmount(cell)).toEqual({ cents, negative, currency });
  });

  it.each(['', 'abc', '1,00', '1.234', '12,34,567', '99999999999'])('not an amount: %j', (cell) => {
    expect(parseAmount(cell)).toBeNull();
  });

  it.each([
    ['2026/11/04', '2026-11-04'],
    ['2026-11-4', '2026-11-04'],
    ['2026.11.04 09:30:00', '2026-11-04'],
    ['20261104', '2026-11-04'],
    ['2026年11月4日', '2026-11-04'],
    ['115/11/04', '2026-11-04'],
    ['1151104', '2026-11-04'],
    ['１１５／１１／０４', '2026-11-04'],
  ])('date %s', (cell, day) => {
    expect(parseDate(cell)).toBe(day);
  });

  it.each(['', '04/11/2026', '2026/02/30', 'total'])('not a date: %j', (cell) => {
    expect(parseDate(cell)).toBeNull();
  });

  it('currencies and last five digits', () => {
    expect(['TWD', 'NTD', 'NT$', '新臺幣', '台幣'].map(parseCurrency)).toEqual(['TWD', 'TWD', 'TWD', 'TWD', 'TWD']);
    expect(['USD', 'us$', '美元'].map(parseCurrency)).toEqual(['USD', 'USD', 'USD']);
    expect(parseCurrency('JPY')).toBeNull();
    expect(lastFiveOf('0012-345-678901')).toBe('78901');
    expect(lastFiveOf('***７８９０１')).toBe('78901');
    expect(lastFiveOf('1234')).toBeNull();
  });
});

const mapping = (over: Partial<Mapping> = {}): Mapping => ({
  headerRow: 1,
  dateColumn: 0,
  amountMode: 'split',
  creditColumn: 2,
  debitColumn: 1,
  currencyColumn: null,
  defaultCurrency: 'TWD',
  accountColumn: 3,
  memoColumns: [4],
  ...over,
});

describe('the mapping', () => {
  it('is validated: columns each amount mode needs', () => {
    expect(check(mapping(), StatementMapping).ok).toBe(true);
    expect(check(mapping({ creditColumn: null }), StatementMapping).ok).toBe(false);
    expect(check(mapping({ amountMode: 'signed' }), StatementMapping).ok).toBe(false);
    expect(check(mapping({ amountMode: 'signed', amountColumn: 2 }), StatementMapping).ok).toBe(true);
    expect(check(mapping({ amountMode: 'indicator', amountColumn: 2, directionColumn: 5 }), StatementMapping).ok).toBe(
      false,
    );
    expect(check(mapping({ dateColumn: 100 }), StatementMapping).ok).toBe(false);
    expect(check(mapping({ memoColumns: [1, 2, 3, 4, 5, 6] }), StatementMapping).ok).toBe(false);
  });

  it('is suggested from Chinese or English column names, after a preamble', () => {
    const rows = parseCsv(
      '帳號：004-12-345678,,,,\n查詢期間：2026/11/01~2026/11/30,,,,\n交易日期,支出金額,存入金額,對方帳號,摘要\n2026/11/20,,"1,000",00012345,TC261120ABC123',
    );
    expect(suggestMapping(rows)).toMatchObject({
      headerRow: 3,
      dateColumn: 0,
      amountMode: 'split',
      creditColumn: 2,
      debitColumn: 1,
      accountColumn: 3,
      memoColumns: [4],
    });
    expect(
      suggestMapping(parseCsv('Date,Amount,Currency,Account,Description\n2026-11-20,1000,TWD,12345,x')),
    ).toMatchObject({
      headerRow: 1,
      amountMode: 'signed',
      amountColumn: 1,
      currencyColumn: 2,
      accountColumn: 3,
      memoColumns: [4],
    });
    // No names at all: the first date and the first amount.
    expect(suggestMapping(parseCsv('x,2026/11/20,1000'))).toMatchObject({
      headerRow: 0,
      dateColumn: 1,
      amountColumn: 2,
    });
  });

  it('is remembered per format: a saved mapping whose header names match is preselected', () => {
    const rows = parseCsv('Date,Out,In,Acct,Memo\n2026/11/20,,1000,12345,x');
    const saved = { signature: formatSignature(rows, 1, 5), mapping: mapping({ memoColumns: [] }) };
    expect(pickMapping(rows, [saved])).toEqual({ mapping: saved.mapping, remembered: true });
    const other = parseCsv('Date,Amount\n2026/11/20,1000');
    expect(pickMapping(other, [saved]).remembered).toBe(false);
  });
});

describe('reading lines', () => {
  const rows = parseCsv(
    [
      '日期,支出,存入,帳號,摘要',
      '2026/11/20,,"1,000",0001234512345,TC261120ABC123',
      '',
      '2026/11/20,300,,00099999,手續費',
      '2026/11/21,,"US$35.00",***54321,',
      '合計,300,"1,035",,',
    ].join('\n'),
  );

  it('credits, debits and unreadable lines, with their line numbers; empty lines left out', () => {
    const lines = readStatement(rows, mapping());
    expect(
      lines.map((l) => [l.lineNo, l.kind, l.bookedOn, l.amountCents, l.currency, l.accountLastFive, l.memo]),
    ).toEqual([
      [2, 'credit', '2026-11-20', 100_000, 'TWD', '12345', 'TC261120ABC123'],
      [4, 'debit', '2026-11-20', 30_000, 'TWD', '99999', '手續費'],
      [5, 'credit', '2026-11-21', 3_500, 'USD', '54321', ''],
      [6, 'unreadable', null, null, null, null, ''],
    ]);
    expect(lines[3]!.problem).toBe('date');
  });

  it('signed amounts and credit/debit indicators', () => {
    const signed = parseCsv('2026/11/20,-500\n2026/11/20,800');
    expect(
      readStatement(
        signed,
        mapping({ headerRow: 0, amountMode: 'signed', amountColumn: 1, accountColumn: null, memoColumns: [] }),
      ).map((l) => l.kind),
    ).toEqual(['debit', 'credit']);
    const flagged = parseCsv('2026/11/20,500,支\n2026/11/20,800,存');
    expect(
      readStatement(
        flagged,
        mapping({
          headerRow: 0,
          amountMode: 'indicator',
          amountColumn: 1,
          directionColumn: 2,
          creditValues: '存, CR',
          accountColumn: null,
          memoColumns: [],
        }),
      ).map((l) => l.kind),
    ).toEqual(['debit', 'credit']);
  });

  it('a currency column wins; an unknown currency makes the line unreadable', () => {
    const csv = parseCsv('2026/11/20,35,USD\n2026/11/20,35,JPY\n2026/11/20,35,');
    const lines = readStatement(
      csv,
      mapping({
        headerRow: 0,
        amountMode: 'signed',
        amountColumn: 1,
        currencyColumn: 2,
        accountColumn: null,
        memoColumns: [],
      }),
    );
    expect(lines.map((l) => [l.kind, l.currency, l.problem])).toEqual([
      ['credit', 'USD', null],
      ['unreadable', null, 'currency'],
      ['credit', 'TWD', null],
    ]);
  });

  it('keys are stable across imports and tell identical lines of one file apart', () => {
    const csv = 'd,o,i,a,m\n2026/11/20,,1000,12345,x\n2026/11/20,,1000,12345,x\n2026/11/21,,1000,12345,x';
    const first = lineKeys(readStatement(parseCsv(csv), mapping()));
    const again = lineKeys(readStatement(parseCsv(csv.replace(/\n/g, '\r\n').replace('1000', '"1,000"')), mapping()));
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(3);
    expect(first[0]).not.toBe(first[1]);
  });
});
