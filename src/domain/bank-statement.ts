/**
 * Bank statement files (issue 11, transfers screen; decision 026): decoding (UTF-8 or Big5, the
 * two encodings Taiwanese banks export), CSV records, the column mapping an organiser chooses once,
 * and the statement lines read through it. Pure: the server stores and matches the lines; the
 * browser validates the mapping with the same struct.
 */
import { array, enums, integer, nullable, object, optional, refine, size, string, type Infer } from 'superstruct';
import { CURRENCIES, type Currency } from './money';

// ---- Decoding -----------------------------------------------------------------------------------

/** The encodings an organiser can choose; `auto` tells UTF-8 (with or without BOM) from Big5. */
export const STATEMENT_ENCODINGS = ['utf-8', 'big5'] as const;
export type StatementEncoding = (typeof STATEMENT_ENCODINGS)[number];
export const ENCODING_CHOICES = ['auto', ...STATEMENT_ENCODINGS] as const;
export type EncodingChoice = (typeof ENCODING_CHOICES)[number];

/** A decoded file: its text, the encoding used, and how many bytes could not be decoded (U+FFFD). */
export type DecodedStatement = { text: string; encoding: StatementEncoding | 'utf-16le'; replaced: number };

/**
 * Decodes a statement file. `auto`: a UTF-16 byte-order mark means UTF-16 (Excel's "Unicode
 * text"), bytes that are valid UTF-8 are UTF-8 (a Big5 file practically never is: its lead bytes
 * are UTF-8 continuation bytes), anything else is Big5. `TextDecoder('big5')` is the WHATWG
 * decoder (Big5-HKSCS), in every browser and in Node with its default full ICU.
 */
export function decodeStatement(bytes: Uint8Array, choice: EncodingChoice = 'auto'): DecodedStatement {
  const count = (text: string) => (text.match(/\uFFFD/g) ?? []).length;
  if (choice === 'auto' && bytes[0] === 0xff && bytes[1] === 0xfe) {
    const text = new TextDecoder('utf-16le').decode(bytes);
    return { text, encoding: 'utf-16le', replaced: count(text) };
  }
  if (choice === 'auto') {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', replaced: 0 };
    } catch {
      // Not UTF-8: Big5 below.
    }
  }
  const encoding: StatementEncoding = choice === 'utf-8' ? 'utf-8' : 'big5';
  // TextDecoder drops a UTF-8 byte-order mark itself.
  const text = new TextDecoder(encoding).decode(bytes);
  return { text, encoding, replaced: count(text) };
}

// ---- CSV ------------------------------------------------------------------------------------------

const DELIMITERS = [',', '\t', ';'] as const;

/** The delimiter of a CSV text: the one that splits the first lines into the same, largest number of cells. */
export function detectDelimiter(text: string): string {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim())
    .slice(0, 10);
  let best: string = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = lines.map((line) => {
      let n = 0;
      let quoted = false;
      for (const ch of line) {
        if (ch === '"') quoted = !quoted;
        else if (ch === d && !quoted) n++;
      }
      return n;
    });
    const mode = Math.max(0, ...counts);
    // Lines with the most common non-zero count (header and data rows agree).
    const tally = new Map<number, number>();
    for (const c of counts) if (c > 0) tally.set(c, (tally.get(c) ?? 0) + 1);
    const agreeing = Math.max(0, ...tally.values());
    const score = agreeing * 1000 + mode;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Splits CSV text into records (RFC 4180: quoted fields with doubled quotes, delimiters and line
 * breaks inside quotes; CRLF, LF or CR line ends). A byte-order mark is dropped. Every physical
 * record is kept, empty ones too (`['']`), so a record's index + 1 is its line number in the file
 * (as long as no quoted field spans lines).
 */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    rows.push(row);
    row = [];
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      // A quote opens a quoted field only at its start (spaces before it are dropped).
      cell = '';
      quoted = true;
    } else if (ch === '"' && cell.trim() === '=') {
      // Excel's text formula ="00123" (keeps leading zeros): the value inside.
      cell = '';
      quoted = true;
    } else if (ch === delimiter) endCell();
    else if (ch === '\r' || ch === '\n') {
      endRow();
      if (ch === '\r' && src[i + 1] === '\n') i++;
    } else cell += ch;
    i++;
  }
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

/** A cell as text: trimmed, with full-width letters, digits and punctuation made ASCII (NFKC). */
export const normalizeCell = (value: string | undefined) => (value ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim();

/** Whether a record has nothing in it. */
export const isEmptyRecord = (cells: string[]) => cells.every((c) => !c.trim());

// ---- Values -------------------------------------------------------------------------------------

const TWD_MARKS = /NT\$|NTD|TWD|新臺幣|新台幣|臺幣|台幣|元/giu;
const USD_MARKS = /US\$|USD|美元|美金/giu;

/** A currency named in a cell (`TWD`, `NTD`, `NT$`, `新臺幣`, `USD`, `US$`, `美元`…), or null. */
export function parseCurrency(value: string): Currency | null {
  const s = normalizeCell(value).toUpperCase();
  if (!s) return null;
  if (/^(?:TWD|NTD|NT\$?|新臺幣|新台幣|臺幣|台幣)$/u.test(s)) return 'TWD';
  if (/^(?:USD|US\$?|美元|美金)$/u.test(s)) return 'USD';
  return null;
}

/** The largest amount read (in cents): beyond it a cell is not an amount (the column's limit). */
export const MAX_AMOUNT_CENTS = 2_000_000_000;

/**
 * An amount cell: `1,000`, `NT$1,000`, `1000.00`, full-width `１，０００`, `(500)` or `-500` or
 * `500-` (negative), `US$35.50`. Answers cents (always positive), the sign, and the currency the
 * cell names, or null when it is no amount (empty, text, more than two decimals, too large).
 */
export function parseAmount(value: string): { cents: number; negative: boolean; currency: Currency | null } | null {
  let s = normalizeCell(value);
  if (!s) return null;
  const currency: Currency | null = USD_MARKS.test(s) ? 'USD' : TWD_MARKS.test(s) ? 'TWD' : null;
  USD_MARKS.lastIndex = 0;
  TWD_MARKS.lastIndex = 0;
  s = s.replace(USD_MARKS, '').replace(TWD_MARKS, '').replace(/[$\s]/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith('-')) {
    negative = true;
    s = s.slice(1);
  } else if (s.endsWith('-')) {
    negative = true;
    s = s.slice(0, -1);
  } else if (s.startsWith('+')) s = s.slice(1);
  // Thousands separators only between groups of three digits.
  if (!/^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$|^\.\d{1,2}$/.test(s)) return null;
  const [whole = '', fraction = ''] = s.replace(/,/g, '').split('.');
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_AMOUNT_CENTS) return null;
  return { cents, negative: negative && cents > 0, currency };
}

/**
 * A date cell as `YYYY-MM-DD` (the bank's calendar day, Taipei): `2026/11/04`, `2026-11-4`,
 * `2026.11.04`, `20261104`, `2026年11月4日`, and the Republic of China years Taiwanese banks
 * print (`115/11/04`, `1151104`: 115 + 1911 = 2026); a time after the date is ignored. Year first
 * only: `04/11/2026` is ambiguous and not read.
 */
export function parseDate(value: string): string | null {
  const s = normalizeCell(value);
  let m = /^(\d{2,4})\s*[/\-.年]\s*(\d{1,2})\s*[/\-.月]\s*(\d{1,2})(?!\d)/u.exec(s);
  m ??= /^(\d{4})(\d{2})(\d{2})(?!\d)/.exec(s);
  m ??= /^(\d{3})(\d{2})(\d{2})(?!\d)/.exec(s);
  if (!m) return null;
  let year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (m[1]!.length < 4) year += 1911;
  if (year < 1990 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** The last five digits of an account cell (`0012-345-678901`, `***78901`), or null with fewer than five. */
export function lastFiveOf(value: string): string | null {
  const digits = normalizeCell(value).replace(/\D/g, '');
  return digits.length >= 5 ? digits.slice(-5) : null;
}

// ---- The column mapping ------------------------------------------------------------------------------

/** How a statement tells credits from debits. */
export const AMOUNT_MODES = ['split', 'signed', 'indicator'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

const Column = integer();
const inRange = (n: number) => n >= 0 && n < 100;

/**
 * Which column holds what (0-based column numbers), chosen by an organiser once per statement
 * format and remembered (decision 026). Amounts: `split` = a credit (deposit) column and a debit
 * (withdrawal) column; `signed` = one column, negative for debits; `indicator` = one column and a
 * column whose value says credit (one of `creditValues`, comma-separated, compared exactly).
 */
export const StatementMapping = refine(
  object({
    /** The line holding the column names (1 = the first line); 0 = the file has none. */
    headerRow: size(integer(), 0, 50),
    dateColumn: Column,
    amountMode: enums(AMOUNT_MODES),
    amountColumn: optional(nullable(Column)),
    creditColumn: optional(nullable(Column)),
    debitColumn: optional(nullable(Column)),
    directionColumn: optional(nullable(Column)),
    creditValues: optional(size(string(), 0, 200)),
    currencyColumn: optional(nullable(Column)),
    /** The currency of lines whose currency no cell names. */
    defaultCurrency: enums(CURRENCIES),
    /** The remitter's account (its last five digits are matched); optional, but lines without are matched only by hand. */
    accountColumn: optional(nullable(Column)),
    /** Description, memo, remitter name…: shown, and searched for order numbers. */
    memoColumns: size(array(Column), 0, 5),
  }),
  'StatementMapping',
  (m) => {
    if (!mappedColumns(m).every(inRange)) return 'Column numbers go from 0 to 99';
    const has = (n: number | null | undefined) => n !== null && n !== undefined;
    if (m.amountMode === 'split' && !(has(m.creditColumn) && has(m.debitColumn)))
      return 'Choose the credit and the debit column';
    if (m.amountMode !== 'split' && !has(m.amountColumn)) return 'Choose the amount column';
    if (m.amountMode === 'indicator' && !(has(m.directionColumn) && m.creditValues?.trim()))
      return 'Choose the credit/debit column and the values that mean credit';
    return true;
  },
);
export type StatementMapping = Infer<typeof StatementMapping>;

/** A mapping's choices of one column each (the memo is several). */
export type SingleColumnKey =
  | 'dateColumn'
  | 'amountColumn'
  | 'creditColumn'
  | 'debitColumn'
  | 'directionColumn'
  | 'currencyColumn'
  | 'accountColumn';

/** Every column a mapping reads. */
export function mappedColumns(m: Pick<StatementMapping, SingleColumnKey | 'memoColumns'>): number[] {
  return [
    m.dateColumn,
    m.amountColumn,
    m.creditColumn,
    m.debitColumn,
    m.directionColumn,
    m.currencyColumn,
    m.accountColumn,
    ...m.memoColumns,
  ].filter((n): n is number => typeof n === 'number');
}

/** The values of a credit/debit column that mean credit, when an organiser has not said. */
export const DEFAULT_CREDIT_VALUES = '存入, 存, 收入, 貸, 貸方, CR, C, Credit, Deposit';

/** The column names of a header row, normalised for comparison (the format's signature). */
export function formatSignature(rows: string[][], headerRow: number, columnCount: number): string {
  if (headerRow <= 0) return `columns:${columnCount}`;
  return (rows[headerRow - 1] ?? []).map((c) => normalizeCell(c).toLowerCase()).join('\u001f');
}

/** How many columns the records of a file have (the widest of its first 50). */
export const columnCountOf = (rows: string[][]) => Math.max(0, ...rows.slice(0, 50).map((r) => r.length));

const HEADER_WORDS: Record<
  'date' | 'credit' | 'debit' | 'amount' | 'direction' | 'currency' | 'account' | 'memo',
  string[]
> = {
  date: ['交易日', '日期', '入帳日', '記帳日', '帳務日', 'date'],
  credit: ['存入', '收入', '貸方', 'credit', 'deposit'],
  debit: ['支出', '提出', '提款', '借方', 'debit', 'withdraw'],
  amount: ['金額', 'amount'],
  direction: ['借貸', '收支', '存提', 'dr/cr', 'cr/dr', 'direction'],
  currency: ['幣別', '幣', 'currency', 'ccy'],
  account: ['帳號', '末五碼', 'account'],
  memo: ['摘要', '備註', '說明', '附言', '匯款人', '戶名', 'memo', 'description', 'remark', 'note', 'payer', 'name'],
};

const headerScore = (cells: string[]) =>
  cells.filter((c) => {
    const s = normalizeCell(c).toLowerCase();
    return s && Object.values(HEADER_WORDS).some((words) => words.some((w) => s.includes(w)));
  }).length;

/**
 * A first guess at the mapping of a file never seen before: the header row (the first of the
 * first ten lines with at least two known column names, Chinese or English) and the columns its
 * names suggest; without one, the first column that reads as a date and the next that reads as
 * an amount. The organiser checks it before importing.
 */
export function suggestMapping(rows: string[][]): StatementMapping {
  const headerIndex = rows.slice(0, 10).findIndex((r) => headerScore(r) >= 2);
  const mapping: StatementMapping = {
    headerRow: headerIndex + 1,
    dateColumn: 0,
    amountMode: 'signed',
    amountColumn: 1,
    creditColumn: null,
    debitColumn: null,
    directionColumn: null,
    creditValues: DEFAULT_CREDIT_VALUES,
    currencyColumn: null,
    defaultCurrency: 'TWD',
    accountColumn: null,
    memoColumns: [],
  };
  if (headerIndex >= 0) {
    const names = rows[headerIndex]!.map((c) => normalizeCell(c).toLowerCase());
    const taken = new Set<number>();
    const find = (field: keyof typeof HEADER_WORDS) => {
      const i = names.findIndex((n, index) => !taken.has(index) && HEADER_WORDS[field].some((w) => n.includes(w)));
      if (i >= 0) taken.add(i);
      return i >= 0 ? i : null;
    };
    // Specific names first: "存入金額" is a credit column before it is an amount.
    const date = find('date');
    const credit = find('credit');
    const debit = find('debit');
    const direction = find('direction');
    const currency = find('currency');
    const account = find('account');
    const amount = find('amount');
    const memo: number[] = [];
    for (let m = find('memo'); m !== null && memo.length < 3; m = find('memo')) memo.push(m);
    if (date !== null) mapping.dateColumn = date;
    if (credit !== null && debit !== null) {
      mapping.amountMode = 'split';
      mapping.creditColumn = credit;
      mapping.debitColumn = debit;
      mapping.amountColumn = null;
    } else {
      mapping.amountColumn = amount ?? credit ?? mapping.amountColumn;
      if (direction !== null) {
        mapping.amountMode = 'indicator';
        mapping.directionColumn = direction;
      }
    }
    mapping.currencyColumn = currency;
    mapping.accountColumn = account;
    mapping.memoColumns = memo.sort((a, b) => a - b);
    return mapping;
  }
  const sample = rows.find((r) => !isEmptyRecord(r)) ?? [];
  const date = sample.findIndex((c) => parseDate(c) !== null);
  if (date >= 0) mapping.dateColumn = date;
  const amount = sample.findIndex((c, i) => i !== date && parseAmount(c) !== null);
  if (amount >= 0) mapping.amountColumn = amount;
  return mapping;
}

/** A saved mapping: the format's signature (formatSignature) and the mapping. */
export type SavedMapping = { signature: string; mapping: StatementMapping };

/**
 * The mapping to preselect for a file: a saved one whose header row holds the same column names
 * (or, for files without names, the same number of columns), else a suggestion. `saved` comes
 * newest first.
 */
export function pickMapping(
  rows: string[][],
  saved: SavedMapping[],
): { mapping: StatementMapping; remembered: boolean } {
  const columns = columnCountOf(rows);
  const known = saved.find((s) => formatSignature(rows, s.mapping.headerRow, columns) === s.signature);
  if (known) return { mapping: known.mapping, remembered: true };
  return { mapping: suggestMapping(rows), remembered: false };
}

// ---- Lines ----------------------------------------------------------------------------------------

export type LineKind = 'credit' | 'debit' | 'unreadable';

/** One line of a statement, read through a mapping. Amounts in cents, always positive. */
export type StatementLine = {
  /** The line in the file (1 = the first). */
  lineNo: number;
  cells: string[];
  kind: LineKind;
  /** Why an unreadable line could not be read. */
  problem: 'date' | 'amount' | 'currency' | null;
  bookedOn: string | null;
  amountCents: number | null;
  currency: Currency | null;
  accountLastFive: string | null;
  memo: string;
};

const cellAt = (cells: string[], column: number | null | undefined) =>
  column === null || column === undefined ? '' : (cells[column] ?? '').trim();

/** The lines of a file after its header row, empty lines left out. */
export function readStatement(rows: string[][], mapping: StatementMapping): StatementLine[] {
  const credits = new Set(
    (mapping.creditValues ?? '')
      .split(/[,，、]/)
      .map((v) => normalizeCell(v).toLowerCase())
      .filter(Boolean),
  );
  const lines: StatementLine[] = [];
  rows.forEach((cells, index) => {
    if (index < mapping.headerRow || isEmptyRecord(cells)) return;
    const line: StatementLine = {
      lineNo: index + 1,
      cells: cells.map((c) => c.trim()),
      kind: 'unreadable',
      problem: null,
      bookedOn: parseDate(cellAt(cells, mapping.dateColumn)),
      amountCents: null,
      currency: null,
      accountLastFive: mapping.accountColumn == null ? null : lastFiveOf(cellAt(cells, mapping.accountColumn)),
      memo: mapping.memoColumns
        .map((m) => normalizeCell(cellAt(cells, m)))
        .filter(Boolean)
        .join(' / '),
    };
    let amount: ReturnType<typeof parseAmount> = null;
    let kind: 'credit' | 'debit' | null = null;
    if (mapping.amountMode === 'split') {
      const credit = parseAmount(cellAt(cells, mapping.creditColumn));
      const debit = parseAmount(cellAt(cells, mapping.debitColumn));
      if (credit && credit.cents > 0) [amount, kind] = [credit, 'credit'];
      else if (debit && debit.cents > 0) [amount, kind] = [debit, 'debit'];
    } else {
      amount = parseAmount(cellAt(cells, mapping.amountColumn));
      if (amount && amount.cents > 0) {
        if (mapping.amountMode === 'signed') kind = amount.negative ? 'debit' : 'credit';
        else
          kind = credits.has(normalizeCell(cellAt(cells, mapping.directionColumn)).toLowerCase()) ? 'credit' : 'debit';
      }
    }
    const named = mapping.currencyColumn == null ? '' : cellAt(cells, mapping.currencyColumn);
    const currency = named ? parseCurrency(named) : (amount?.currency ?? mapping.defaultCurrency);
    if (!line.bookedOn) line.problem = 'date';
    else if (!amount || !kind) line.problem = 'amount';
    else if (!currency) line.problem = 'currency';
    else {
      line.kind = kind;
      line.amountCents = amount.cents;
      line.currency = currency;
    }
    lines.push(line);
  });
  return lines;
}

/**
 * What identifies a line across imports (decision 026): its date, direction, currency, amount,
 * account and memo, and which occurrence of that same content it is in its file (two identical
 * transfers on one day stay two lines). The same statement, or an overlapping one, imported again
 * gives the same keys; the server stores a hash of each, unique. Unreadable lines have none.
 */
export function lineKeys(lines: StatementLine[]): (string | null)[] {
  const seen = new Map<string, number>();
  return lines.map((l) => {
    if (l.kind === 'unreadable') return null;
    const memo = l.memo.toLowerCase();
    const base = [l.bookedOn, l.kind, l.currency, l.amountCents, l.accountLastFive ?? '', memo].join('|');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}|#${n}`;
  });
}
