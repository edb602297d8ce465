import { describe, expect, it } from 'vitest';
import { csvRow, csvText, exportFileName, neutraliseFormula } from './exports';

describe('CSV cells', () => {
  it('neutralises text a spreadsheet would run as a formula (OWASP)', () => {
    for (const risky of ['=HYPERLINK("http://x")', '+886-912-345-678', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      expect(neutraliseFormula(risky), JSON.stringify(risky)).toBe(`'${risky}`);
    for (const safe of ['Harbour Pictures', '港灣影業', '1+1', 'a=b', ''])
      expect(neutraliseFormula(safe), safe).toBe(safe);
  });

  it('writes numbers, amounts and Taipei date-times as Excel reads them; numbers are never prefixed', () => {
    expect(csvText(-5)).toBe('-5');
    expect(csvText({ cents: 100_000, currency: 'TWD' })).toBe('1000');
    expect(csvText({ cents: 3_550, currency: 'USD' })).toBe('35.50');
    expect(csvText(new Date('2026-11-04T01:30:00Z'))).toBe('2026-11-04 09:30');
    expect(csvText(null)).toBe('');
    expect(csvText(undefined)).toBe('');
  });

  it('quotes fields with quotes, commas and line breaks; rows end with CRLF', () => {
    expect(csvRow(['a', 'b,c', 'say "hi"', 'two\nlines', '=1+1', 12])).toBe(
      'a,"b,c","say ""hi""","two\nlines",\'=1+1,12\r\n',
    );
    expect(csvRow(['港灣影業', '臺北'])).toBe('港灣影業,臺北\r\n');
  });
});

describe('export file names', () => {
  it('name the dataset, the event (or all events) and the Taipei day', () => {
    const now = new Date('2026-11-19T17:00:00Z'); // 2026-11-20 01:00 in Taipei
    expect(exportFileName('orders', 'market-earlybird', now, 'csv')).toBe(
      'tccf-orders-market-earlybird-2026-11-20.csv',
    );
    expect(exportFileName('badges', null, now, 'xlsx')).toBe('tccf-badges-all-events-2026-11-20.xlsx');
  });
});
