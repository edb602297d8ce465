/**
 * The glossary's punctuation rule for Chinese text (shared/i18n-glossary.md): brackets and colons
 * are full-width (（）：). A text with Han characters may hold a half-width `(`, `)` or `:` only
 * inside a `{{placeholder}}`, a time (`09:30`), a URL scheme (`https://`), or a date's offset as
 * the spec writes it (`(GMT+8)`). Pure: used by the message tests and the seed data tests.
 */
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;

/** The half-width brackets and colons of a Chinese text, with a little context; [] when it keeps the rule. */
export function halfWidthSlips(text: string): string[] {
  if (!HAN.test(text)) return [];
  const stripped = text
    .replace(/\{\{\w+\}\}/g, ' ')
    .replace(/\d:\d/g, '')
    .replace(/[a-z]+:\/\//gi, '')
    .replace(/\(GMT[+-]\d{1,2}(?::?\d{2})?\)/g, '');
  return [...stripped.matchAll(/.{0,6}[():].{0,6}/g)].map((m) => m[0]);
}
