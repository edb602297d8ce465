import { readFileSync } from 'node:fs';
import { addAttribute, escapeHTML } from 'astro/runtime/server/index.js';
import { describe, expect, test } from 'vitest';
import { translator } from '@i18n/i18n';
import { LOCALES } from '@i18n/locales';
import { ORDER_CARD_FIXTURES } from './order-card-fixtures';
import { escapeAttr, escapeText, renderOrderCards } from './order-cards';

/**
 * The golden files are what OrderList.astro's per-card template (decision 060) rendered for
 * ORDER_CARD_FIXTURES, through Astro's container, before the list became one string
 * (decision 074): the new renderer must give the same bytes.
 */
const golden = (locale: string) =>
  readFileSync(new URL(`./order-cards.golden.${locale}.html`, import.meta.url), 'utf8');

describe('renderOrderCards', () => {
  test.each(LOCALES)('gives the markup the Astro template rendered (%s)', (locale) => {
    expect(renderOrderCards(ORDER_CARD_FIXTURES, translator(locale), locale)).toBe(golden(locale));
  });

  test('an empty list is an empty ul', () => {
    expect(renderOrderCards([], translator('en'), 'en')).toBe('<ul class="grid gap-4 md:grid-cols-2"></ul>');
  });

  test('escapes every value from the order (no markup, no way out of an attribute)', () => {
    const hostile = ORDER_CARD_FIXTURES.find((o) => o.eventName.includes('<script'))!;
    const html = renderOrderCards([hostile], translator('en'), 'en');
    expect(html).not.toMatch(/<script|<img|<b>|<\/b>/);
    expect(html).toContain(
      '<h2 id="order-R<2026>&amp;&quot;\'9">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &quot;names&quot;</h2>',
    );
    expect(html).toContain('<dd>&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; more</dd>');
    expect(html).toContain('<dd>&lt;b&gt;bold&lt;/b&gt;, Tom &amp; Jerry&#39;s &quot;show&quot;</dd>');
    expect(html).toContain(
      'href="/en/events/slug%20with%20spaces%2F%26%22%3C%3E/registrations/a%20b%2Fc%3Fd%26e%22f%3Cg%3E"',
    );
    // Only the card's own elements, each attribute value closed by its own quote; the text
    // between them holds no markup character at all.
    const TAG = /<\/?([a-z0-9]+)(?: [a-z-]+="[^"]*")*>/g;
    const names = new Set([...html.matchAll(TAG)].map((m) => m[1]));
    expect([...names].sort()).toEqual(['a', 'article', 'dd', 'div', 'dl', 'dt', 'h2', 'li', 'span', 'ul']);
    expect(html.replace(TAG, '')).not.toMatch(/[<>"']/);
  });

  test.each([
    'plain',
    '<script>alert(1)</script>',
    `& ' " < >`,
    '&amp; already',
    '"><svg onload=alert(1)>',
    '中文「引號」',
    '',
  ])('escapes as Astro does: %j', (value) => {
    expect(escapeText(value)).toBe(escapeHTML(value));
    expect(` title="${escapeAttr(value)}"`).toBe(
      value === '' ? ` title="${value}"` : String(addAttribute(value, 'title')),
    );
  });
});
