import { describe, expect, it } from 'vitest';
import { negotiateLocale, parseAcceptLanguage, toLocale } from './locales';

describe('locale negotiation (spec §9, DESIGN D6)', () => {
  it('prefers the locale query parameter over everything', () => {
    expect(negotiateLocale({ query: 'zh-TW', stored: 'en', acceptLanguage: 'en-US' })).toBe('zh-TW');
    expect(negotiateLocale({ query: 'en', stored: 'zh-TW', acceptLanguage: 'zh-TW' })).toBe('en');
  });
  it('then the stored preference', () => {
    expect(negotiateLocale({ stored: 'zh-TW', acceptLanguage: 'en-US,en;q=0.9' })).toBe('zh-TW');
  });
  it('ignores an unsupported query or stored value', () => {
    expect(negotiateLocale({ query: 'fr', stored: 'de', acceptLanguage: 'zh-Hant-TW,zh;q=0.9' })).toBe('zh-TW');
  });
  it('then the browser, honouring q-values and matching zh-Hant-TW', () => {
    expect(negotiateLocale({ acceptLanguage: 'fr-FR,zh-Hant-TW;q=0.8,en;q=0.5' })).toBe('zh-TW');
    expect(negotiateLocale({ acceptLanguage: 'en;q=0.4,zh-TW;q=0.9' })).toBe('zh-TW');
    expect(negotiateLocale({ acceptLanguage: 'ja,en-GB;q=0.7' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: 'zh' })).toBe('zh-TW');
  });
  it('falls back to English', () => {
    expect(negotiateLocale({})).toBe('en');
    expect(negotiateLocale({ acceptLanguage: 'ja, ko;q=0.5' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: 'zh-TW;q=0' })).toBe('en');
  });
  it('maps paths and codes', () => {
    expect(toLocale('zh-tw')).toBe('zh-TW');
    expect(toLocale('zh-Hant')).toBe('zh-TW');
    expect(toLocale('zh-CN')).toBeUndefined();
    expect(parseAcceptLanguage('a;q=0.1, b, c;q=0.5')).toEqual(['b', 'c', 'a']);
  });
});
