import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

describe('return paths stay on the site', () => {
  it.each(['/en/account/orders', '/zh-tw/events/x/registrations/1?tab=pay', '/', '/en/a#b'])('keeps %s', (p) => {
    expect(safeReturnPath(p)).toBe(p);
  });
  it.each([
    '//evil.example/',
    '/\\evil.example',
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'en/account',
    '/%0d%0aSet-Cookie:x',
    '/\u0000x',
    '',
    '/\tx',
    42,
    null,
    undefined,
    '/'.padEnd(3000, 'a'),
  ])('refuses %s', (p) => {
    const result = safeReturnPath(p);
    // Encoded CR/LF stay encoded in a path and are harmless; raw control characters are refused.
    if (p === '/%0d%0aSet-Cookie:x') expect(result).toBe('/%0d%0aSet-Cookie:x');
    else expect(result).toBeNull();
  });
});
