import { describe, expect, it } from 'vitest';
import {
  BUSINESS_TYPES,
  COMPANY_TYPES,
  ENUMERATION_KINDS,
  ENUMERATIONS,
  enumKey,
  INDUSTRIES,
  STORY_GENRE_OTHER,
  STORY_GENRES,
  WORK_CATEGORIES,
} from '@domain/enumerations';
import { catalogue } from './catalogues';
import { translator } from './i18n';
import { LOCALES } from './locales';

const allKeys = () => ENUMERATION_KINDS.flatMap((kind) => ENUMERATIONS[kind].map((id) => enumKey(kind, id as never)));

describe('enumeration labels', () => {
  it('have the spec’s ids', () => {
    expect(COMPANY_TYPES).toHaveLength(8);
    expect(INDUSTRIES).toBe(COMPANY_TYPES);
    expect(BUSINESS_TYPES).toHaveLength(14);
    expect(STORY_GENRES).toHaveLength(27);
    expect(STORY_GENRE_OTHER).toBe(27);
    expect(WORK_CATEGORIES).toHaveLength(16);
    expect(enumKey('companyType', 3)).toBe('enum.companyType.3');
    expect(enumKey('workGenre', 'piece')).toBe('enum.workGenre.piece');
  });

  it('label every id in both languages, and nothing else (the enumerations’ catalogue)', () => {
    for (const locale of LOCALES)
      expect(Object.keys(catalogue('enumerations', locale)).sort()).toEqual(allKeys().sort());
  });

  it('reach the pages through their translator', () => {
    expect(translator('en')('enum.participation.1')).toBe('Pavilion organiser');
    expect(translator('zh-TW')('enum.participation.1')).toBe('展館主辦單位');
  });

  it('give distinct labels within a kind', () => {
    for (const locale of LOCALES)
      for (const kind of ENUMERATION_KINDS) {
        const messages = catalogue('enumerations', locale);
        const labels = ENUMERATIONS[kind].map((id) => messages[enumKey(kind, id as never)]);
        expect(new Set(labels).size, `${locale} ${kind}`).toBe(labels.length);
      }
  });
});
