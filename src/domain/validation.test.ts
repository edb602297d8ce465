import { array, object, optional, record, string, type } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { BadgeApplication } from './badges';
import { OrderPaymentUpdate } from './payments';
import { check, hasLoneSurrogate, hasNul, NUL_MESSAGE, SURROGATE_MESSAGE, textIssues } from './validation';

const NUL = '\u0000';

describe('check refuses U+0000', () => {
  const Struct = object({
    name: string(),
    applicant: object({ nameEn: string(), tags: optional(array(string())) }),
    list: optional(array(object({ title: string() }))),
  });

  it('accepts input without NUL', () => {
    expect(check({ name: 'a', applicant: { nameEn: 'b', tags: ['x'] } }, Struct)).toEqual({
      ok: true,
      value: { name: 'a', applicant: { nameEn: 'b', tags: ['x'] } },
    });
  });

  it('names a top-level field', () => {
    expect(check({ name: `a${NUL}`, applicant: { nameEn: 'b' } }, Struct)).toEqual({
      ok: false,
      issues: [{ path: 'name', message: NUL_MESSAGE }],
    });
  });

  it('names nested fields in objects and arrays, every one of them, in input order', () => {
    const result = check(
      {
        name: NUL,
        applicant: { nameEn: `x${NUL}y`, tags: ['ok', `${NUL}`] },
        list: [{ title: 'fine' }, { title: `t${NUL}` }],
      },
      Struct,
    );
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: 'name', message: NUL_MESSAGE },
        { path: 'applicant.nameEn', message: NUL_MESSAGE },
        { path: 'applicant.tags.1', message: NUL_MESSAGE },
        { path: 'list.1.title', message: NUL_MESSAGE },
      ],
    });
  });

  it('refuses the NUL before the struct runs (no other issues reported)', () => {
    // `applicant` is missing and `extra` is unknown: the NUL alone is reported.
    expect(check({ name: NUL, extra: 1 }, Struct)).toEqual({
      ok: false,
      issues: [{ path: 'name', message: NUL_MESSAGE }],
    });
  });

  it('refuses a NUL in a field the struct would ignore or does not know', () => {
    // type() lets unknown keys through; a NUL in one is still refused.
    expect(check({ name: 'a', unknown: { deep: [NUL] } }, type({ name: string() }))).toEqual({
      ok: false,
      issues: [{ path: 'unknown.deep.0', message: NUL_MESSAGE }],
    });
  });

  it('refuses a NUL in a key, shown escaped', () => {
    const result = check({ [`a${NUL}b`]: 'v' }, record(string(), string()));
    expect(result).toEqual({ ok: false, issues: [{ path: 'a\\u0000b', message: NUL_MESSAGE }] });
    expect(!result.ok && hasNul(result.issues[0]!.path)).toBe(false);
  });

  it('refuses a NUL in a query-string value (validQuery input)', () => {
    expect(check({ lang: NUL }, object({ lang: optional(string()) }))).toEqual({
      ok: false,
      issues: [{ path: 'lang', message: NUL_MESSAGE }],
    });
  });

  it('covers the badge application and the order payment update', () => {
    const application = {
      applicant: { nameEn: 'A', contactPhone: '886-912-345-678', companyNameZh: `好${NUL}` },
      badge: { nameEn: `B${NUL}` },
      personalPhotoFileId: '00000000-0000-4000-8000-000000000000',
    };
    expect(check(application, BadgeApplication)).toEqual({
      ok: false,
      issues: [
        { path: 'applicant.companyNameZh', message: NUL_MESSAGE },
        { path: 'badge.nameEn', message: NUL_MESSAGE },
      ],
    });
    const update = {
      payment: { type: 'USD', remitter: `R${NUL}`, senderBank: 'Bank', lastFiveDigits: '12345' },
      receipt: { kind: 'company', invoiceTitle: `T${NUL}`, unifiedBusinessNumber: '04595257' },
    };
    expect(check(update, OrderPaymentUpdate)).toEqual({
      ok: false,
      issues: [
        { path: 'payment.remitter', message: NUL_MESSAGE },
        { path: 'receipt.invoiceTitle', message: NUL_MESSAGE },
      ],
    });
  });

  it('does not loop on cyclic input and leaves non-plain objects alone', () => {
    const cyclic: Record<string, unknown> = { a: NUL };
    cyclic.self = cyclic;
    expect(textIssues(cyclic)).toEqual([{ path: 'a', message: NUL_MESSAGE }]);
    expect(textIssues(new Date(0))).toEqual([]);
    expect(textIssues(null)).toEqual([]);
    expect(textIssues(5)).toEqual([]);
    expect(textIssues(NUL)).toEqual([{ path: '', message: NUL_MESSAGE }]);
  });

  it('hasNul', () => {
    expect(hasNul('abc')).toBe(false);
    expect(hasNul(`a${NUL}`)).toBe(true);
    expect(hasNul('\\u0000')).toBe(false);
  });
});

describe('check refuses lone surrogates (issue 20: a 500 on PGlite)', () => {
  const Struct = object({ name: string(), tags: optional(array(string())) });

  it('names the field holding one, high or low, and refuses it before the struct runs', () => {
    expect(check({ name: 'A\ud800B', tags: ['ok', '\udc00'] }, Struct)).toEqual({
      ok: false,
      issues: [
        { path: 'name', message: SURROGATE_MESSAGE },
        { path: 'tags.1', message: SURROGATE_MESSAGE },
      ],
    });
  });

  it('accepts surrogate pairs (emoji, rare Han characters) and the escaped text itself', () => {
    expect(check({ name: '😀 𠀀 \\ud800' }, Struct)).toEqual({ ok: true, value: { name: '😀 𠀀 \\ud800' } });
  });

  it('refuses one in a key, shown escaped', () => {
    const result = check({ ['a\ud800']: 'v' }, record(string(), string()));
    expect(result).toEqual({ ok: false, issues: [{ path: 'a\\ud800', message: SURROGATE_MESSAGE }] });
  });

  it('covers the badge application', () => {
    const application = {
      applicant: { nameEn: 'A\ud800B', contactPhone: '886-912-345-678' },
      badge: { nameEn: 'B' },
      personalPhotoFileId: '00000000-0000-4000-8000-000000000000',
    };
    expect(check(application, BadgeApplication)).toEqual({
      ok: false,
      issues: [{ path: 'applicant.nameEn', message: SURROGATE_MESSAGE }],
    });
  });

  it('hasLoneSurrogate', () => {
    expect(hasLoneSurrogate('abc')).toBe(false);
    expect(hasLoneSurrogate('😀')).toBe(false);
    expect(hasLoneSurrogate('\ud83d')).toBe(true);
    expect(hasLoneSurrogate('x\ude00')).toBe(true);
  });
});
