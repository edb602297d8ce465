import { describe, expect, it } from 'vitest';
import { EXPORT_LABELS } from '@domain/export-labels';
import { MESSAGES } from './i18n';

describe('export labels', () => {
  it('are the pages’ messages, word for word, in both languages', () => {
    expect(Object.keys(EXPORT_LABELS['zh-TW']).sort()).toEqual(Object.keys(EXPORT_LABELS.en).sort());
    for (const locale of ['en', 'zh-TW'] as const) {
      for (const [key, text] of Object.entries(EXPORT_LABELS[locale])) {
        expect(MESSAGES[locale][key], `${locale} ${key}`).toBe(text);
      }
    }
  });
});
