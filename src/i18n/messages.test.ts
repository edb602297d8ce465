import { describe, expect, it } from 'vitest';
import { DOMAIN_ERRORS } from '@domain/errors';
import { CARD_FAILURES } from '@domain/payments';
import { CATALOGUES, type CatalogueName } from './catalogues';
import { MESSAGES, translator } from './i18n';
import { halfWidthSlips } from './punctuation';

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const NAMES = Object.keys(CATALOGUES) as CatalogueName[];
const en = CATALOGUES.pages.en;
const zhTW = CATALOGUES.pages['zh-TW'];

/** The rules every catalogue keeps (src/i18n/catalogues.ts): pages, enumerations, mail, exports. */
describe.each(NAMES)('the %s catalogue', (name) => {
  const english: Record<string, string> = CATALOGUES[name].en;
  const chinese: Record<string, string> = CATALOGUES[name]['zh-TW'];

  it('has the same keys in en and zh-TW', () => {
    expect(Object.keys(english).length).toBeGreaterThan(0);
    expect(Object.keys(chinese).sort()).toEqual(Object.keys(english).sort());
  });
  it('uses the same placeholders in both languages', () => {
    for (const [key, value] of Object.entries(english))
      expect(placeholders(chinese[key]!), key).toEqual(placeholders(value));
  });
  it('has no empty strings', () => {
    for (const [key, value] of [...Object.entries(english), ...Object.entries(chinese)])
      expect(value.trim(), key).not.toBe('');
  });
  it('writes Chinese with full-width punctuation', () => {
    for (const [key, value] of Object.entries(chinese)) {
      // A Han character directly followed by an ASCII comma, period, colon or bracket is a slip.
      expect(/[\u4e00-\u9fff][,.:;!?()]/.test(value), `${key}: ${value}`).toBe(false);
      expect(halfWidthSlips(value), `${key}: ${value}`).toEqual([]);
    }
  });
  it('puts a half-width space between Han characters and Latin letters or digits (glossary)', () => {
    for (const [key, value] of Object.entries(chinese)) {
      const text = value.replace(/\{\{\w+\}\}/g, ' ');
      expect(/[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]/.test(text), `${key}: ${value}`).toBe(false);
    }
  });
  it('writes the back office as 後臺, never 後台 (臺 as the glossary writes it)', () => {
    for (const [key, value] of Object.entries(chinese)) expect(value.includes('後台'), `${key}: ${value}`).toBe(false);
  });
  it('gives every plural message both forms (i18next _one and _other), never also a plain key', () => {
    const keys = Object.keys(english);
    for (const base of keys.filter((k) => /_(one|other)$/.test(k)).map((k) => k.replace(/_(one|other)$/, ''))) {
      expect(keys, base).toContain(`${base}_one`);
      expect(keys, base).toContain(`${base}_other`);
      expect(keys, `${base} is also a plain key`).not.toContain(base);
    }
  });
  it('shares no key with another catalogue: each word has one home', () => {
    for (const other of NAMES.filter((n) => n !== name))
      expect(
        Object.keys(english).filter((key) => key in CATALOGUES[other].en),
        `${name} and ${other}`,
      ).toEqual([]);
  });
});

describe('the rule on punctuation', () => {
  it('finds a half-width bracket or colon anywhere in Chinese text, but not in English', () => {
    expect(halfWidthSlips('提案大會：專案提案 (Project to Screen)')).not.toEqual([]);
    expect(halfWidthSlips('付款金額: {{amount}}')).not.toEqual([]);
    expect(halfWidthSlips('(Project to Screen) 專案提案')).not.toEqual([]);
    expect(halfWidthSlips('識別證 (VIP)')).not.toEqual([]);
    expect(halfWidthSlips('提案大會：專案提案（Project to Screen）')).toEqual([]);
    expect(halfWidthSlips('{{date}} 開放報名，時間 09:30–17:00，詳見 https://tccf.taicca.tw/')).toEqual([]);
    expect(halfWidthSlips('2026/11/4 09:30 (GMT+8) 開放報名')).toEqual([]);
    // English text keeps its own punctuation.
    expect(halfWidthSlips('Amount paid: (TWD)')).toEqual([]);
  });
});

describe('the pages’ messages', () => {
  it('are the pages’ catalogue and the enumerations’ labels, nothing from the mail or the exports', () => {
    expect(Object.keys(MESSAGES.en).sort()).toEqual(
      [...Object.keys(CATALOGUES.pages.en), ...Object.keys(CATALOGUES.enumerations.en)].sort(),
    );
  });
  it('have plural messages', () => {
    expect(Object.keys(en).some((k) => k.endsWith('_one'))).toBe(true);
  });
  it('keep the spec wording where the spec quotes it', () => {
    expect(en['error.unexpected']).toBe('Sorry, an unexpected error has occurred.');
    expect(en['orders.title']).toBe('Orders');
    expect(zhTW['orders.heading']).toBe('訂單列表');
  });
  it('translate with interpolation, per locale, without a shared language switch', () => {
    const tEn = translator('en');
    const tZh = translator('zh-TW');
    expect(tZh('orders.count', { count: 3 })).toBe('共 3 筆訂單');
    expect(tEn('orders.count', { count: 3 })).toBe('3 orders');
    expect(tEn('orders.count', { count: 1 })).toBe('1 order');
    expect(tZh('orders.count', { count: 1 })).toBe('共 1 筆訂單');
    expect(tEn('eventReg.seatsLeft', { count: 1 })).toBe('1 seat left');
    expect(tEn('eventReg.seatsLeft', { count: 0 })).toBe('0 seats left');
    expect(tEn('menu.logout')).toBe('Log out');
  });
  it('count included badges and links in words that fit one (issue 19: "The 1 included exhibitor badges")', () => {
    const tEn = translator('en');
    const tZh = translator('zh-TW');
    expect(tEn('summary.badgeLinksPending', { count: 1 })).toBe(
      'The included exhibitor badge is issued as a one-time link once the registration is paid.',
    );
    expect(tEn('summary.badgeLinksPending', { count: 4 })).toMatch(/^The 4 included exhibitor badges are issued/);
    expect(tEn('summary.badgeLinksNote', { count: 1 })).toMatch(/^Your registration includes one exhibitor badge\./);
    expect(tZh('summary.badgeLinksPending', { count: 1 })).toBe(
      '完成付款後，附贈的 1 張展商識別證將以一次性連結核發。',
    );
    expect(tZh('summary.badgeLinksPending', { count: 4 })).toBe(
      '完成付款後，附贈的 4 張展商識別證將以一次性連結核發。',
    );
  });

  it('say why a card payment failed in both languages, never with the gateway’s own text', () => {
    for (const reason of CARD_FAILURES) {
      expect(en, reason).toHaveProperty([`processing.reason.${reason}`]);
      expect(zhTW, reason).toHaveProperty([`processing.reason.${reason}`]);
    }
    expect(
      Object.keys(en)
        .filter((k) => k.startsWith('processing.reason.'))
        .sort(),
    ).toEqual(CARD_FAILURES.map((r) => `processing.reason.${r}`).sort());
  });

  it('translate every domain error code (apiError.<code>), in both languages', () => {
    for (const code of Object.keys(DOMAIN_ERRORS)) {
      expect(en, code).toHaveProperty([`apiError.${code}`]);
      expect(zhTW, code).toHaveProperty([`apiError.${code}`]);
    }
  });
});
