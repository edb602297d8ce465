import { describe, expect, it } from 'vitest';
import { countryByIso, countryBySlug, countryName, countryOptions, listCountries, slugify } from './countries';

describe('countries', () => {
  const all = listCountries();

  it('lists every officially assigned ISO 3166-1 country, about 240–250', () => {
    expect(all.length).toBeGreaterThanOrEqual(240);
    expect(all.length).toBeLessThanOrEqual(250);
    expect(new Set(all.map((c) => c.iso)).size).toBe(all.length);
    expect(new Set(all.map((c) => c.iso2)).size).toBe(all.length);
    expect(new Set(all.map((c) => c.slug)).size).toBe(all.length);
    for (const c of all) {
      expect(c.iso, c.name).toMatch(/^[A-Z]{3}$/);
      expect(c.iso2, c.name).toMatch(/^[A-Z]{2}$/);
      expect(c.slug, c.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.prefix, c.name).toMatch(/^(\+\d{1,4})?$/);
      expect(c.currency, c.name).toMatch(/^([A-Z]{3})?$/);
      expect(c.region, c.name).not.toBe('');
      expect(c.latlng).toHaveLength(2);
    }
  });

  it('gives every country a Traditional Chinese name', () => {
    for (const c of all) {
      expect(c.nameZhTw, c.name).toMatch(/[\u4e00-\u9fff]/);
      // A few Simplified-only characters that must not appear (国, 亚, 尔, 兰, 罗, 达, 与).
      expect(c.nameZhTw, c.name).not.toMatch(/[国亚尔兰罗达与]/);
    }
  });

  it('holds Taiwan, Nigeria and Germany with both names and their codes', () => {
    expect(countryByIso('TWN')).toMatchObject({
      name: 'Taiwan',
      nameZhTw: '台灣',
      slug: 'taiwan',
      iso2: 'TW',
      prefix: '+886',
      currency: 'TWD',
      region: 'Asia',
      subregion: 'Eastern Asia',
    });
    expect(countryByIso('nga')).toMatchObject({
      name: 'Nigeria',
      nameZhTw: '奈及利亞',
      prefix: '+234',
      currency: 'NGN',
    });
    expect(countryByIso('DEU')?.nameZhTw).toBe('德國');
    expect(countryByIso('JPN')?.nameZhTw).toBe('日本');
    expect(countryByIso('HKG')?.nameZhTw).toBe('香港');
    expect(countryByIso('USA')).toMatchObject({ slug: 'united-states', prefix: '+1' });
    expect(countryByIso('XXX')).toBeUndefined();
    expect(countryByIso('TW')).toBeUndefined();
  });

  it('finds a country by slug, any case', () => {
    expect(countryBySlug('taiwan')?.iso).toBe('TWN');
    expect(countryBySlug('United-Kingdom')?.iso).toBe('GBR');
    expect(countryBySlug('nowhere')).toBeUndefined();
  });

  it('names a country in a locale', () => {
    const tw = countryByIso('TWN')!;
    expect(countryName(tw, 'en')).toBe('Taiwan');
    expect(countryName(tw, 'zh-TW')).toBe('台灣');
  });

  it('gives the dropdown options sorted by the locale’s name', () => {
    const en = countryOptions('en');
    expect(en).toHaveLength(all.length);
    expect(en[0]).toEqual({ iso: 'AFG', iso2: 'AF', name: 'Afghanistan' });
    const names = en.map((o) => o.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en', { sensitivity: 'base' }).compare));
    expect(names.indexOf('Åland Islands')).toBeLessThan(names.indexOf('Albania'));
    const zh = countryOptions('zh-TW');
    expect(zh.find((o) => o.iso === 'TWN')?.name).toBe('台灣');
    const zhNames = zh.map((o) => o.name);
    expect(zhNames).toEqual([...zhNames].sort(new Intl.Collator('zh-TW').compare));
  });

  it('hands out copies: a caller cannot change the table', () => {
    const first = listCountries()[0]!;
    first.name = 'changed';
    first.latlng[0] = 999;
    expect(listCountries()[0]!.name).not.toBe('changed');
    expect(listCountries()[0]!.latlng[0]).not.toBe(999);
  });

  it('slugifies names to ASCII', () => {
    expect(slugify("Côte d'Ivoire")).toBe('cote-d-ivoire');
    expect(slugify('São Tomé and Príncipe')).toBe('sao-tome-and-principe');
    expect(slugify('  Akwa Ibom ')).toBe('akwa-ibom');
  });
});
