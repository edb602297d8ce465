import { describe, expect, it } from 'vitest';
import en from './en.json';
import zhTW from './zh-TW.json';
import { DOMAIN_ERRORS } from '@domain/errors';
import { translator } from './i18n';
import { halfWidthSlips } from './punctuation';

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('messages', () => {
  it('have the same keys in en and zh-TW', () => {
    expect(Object.keys(zhTW).sort()).toEqual(Object.keys(en).sort());
  });
  it('use the same placeholders in both languages', () => {
    for (const [key, value] of Object.entries(en)) {
      expect(placeholders((zhTW as Record<string, string>)[key]!), key).toEqual(placeholders(value));
    }
  });
  it('have no empty strings', () => {
    for (const [key, value] of [...Object.entries(en), ...Object.entries(zhTW)]) expect(value.trim(), key).not.toBe('');
  });
  it('write Chinese with full-width punctuation', () => {
    for (const [key, value] of Object.entries(zhTW)) {
      // A Han character directly followed by an ASCII comma, period, colon or bracket is a slip.
      expect(/[\u4e00-\u9fff][,.:;!?()]/.test(value), `${key}: ${value}`).toBe(false);
    }
  });
  it('write brackets and colons in Chinese text full-width (glossary)', () => {
    for (const [key, value] of Object.entries(zhTW)) expect(halfWidthSlips(value), `${key}: ${value}`).toEqual([]);
    // The rule itself: a half-width bracket or colon anywhere in Chinese text is a slip.
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
  it('put a half-width space between Han characters and Latin letters or digits (glossary)', () => {
    for (const [key, value] of Object.entries(zhTW)) {
      const text = value.replace(/\{\{\w+\}\}/g, ' ');
      expect(/[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]/.test(text), `${key}: ${value}`).toBe(false);
    }
  });
  it('give every plural message both English forms (i18next _one and _other)', () => {
    const keys = Object.keys(en);
    const plurals = keys.filter((k) => /_(one|other)$/.test(k)).map((k) => k.replace(/_(one|other)$/, ''));
    expect(plurals.length).toBeGreaterThan(0);
    for (const base of plurals) {
      expect(keys, base).toContain(`${base}_one`);
      expect(keys, base).toContain(`${base}_other`);
      expect(keys, `${base} is also a plain key`).not.toContain(base);
    }
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

  it('translate every domain error code (apiError.<code>), in both languages', () => {
    for (const code of Object.keys(DOMAIN_ERRORS)) {
      expect(en, code).toHaveProperty([`apiError.${code}`]);
      expect(zhTW, code).toHaveProperty([`apiError.${code}`]);
    }
  });
});
