import { describe, expect, it } from 'vitest';
import { ENUM_LABELS } from '@domain/enumeration-labels';
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
import en from './en.json';
import zhTW from './zh-TW.json';
import { translator } from './i18n';

const enumKeysOf = (messages: Record<string, string>) =>
  Object.fromEntries(Object.entries(messages).filter(([k]) => k.startsWith('enum.')));

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

  it('label every id in both languages (i18n files)', () => {
    for (const kind of ENUMERATION_KINDS)
      for (const id of ENUMERATIONS[kind]) {
        const key = enumKey(kind, id as never);
        expect(en, key).toHaveProperty([key]);
        expect(zhTW, key).toHaveProperty([key]);
      }
    expect(translator('en')('enum.participation.1')).toBe('Pavilion organiser');
    expect(translator('zh-TW')('enum.participation.1')).toBe('展館主辦單位');
  });

  it('are the same in the i18n files and in the API’s copy (no other enum.* keys)', () => {
    expect(enumKeysOf(en)).toEqual(ENUM_LABELS.en);
    expect(enumKeysOf(zhTW)).toEqual(ENUM_LABELS['zh-TW']);
    const all = ENUMERATION_KINDS.flatMap((kind) => ENUMERATIONS[kind].map((id) => enumKey(kind, id as never)));
    expect(Object.keys(ENUM_LABELS.en).sort()).toEqual([...all].sort());
  });

  it('give distinct labels within a kind', () => {
    for (const locale of ['en', 'zh-TW'] as const)
      for (const kind of ENUMERATION_KINDS) {
        const messages: Record<string, string> = ENUM_LABELS[locale];
        const labels = ENUMERATIONS[kind].map((id) => messages[enumKey(kind, id as never)]);
        expect(new Set(labels).size, `${locale} ${kind}`).toBe(labels.length);
      }
  });
});
