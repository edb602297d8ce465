import { describe, expect, it } from 'vitest';
import { sessionCookieName, sessionRefreshDue } from './session';

describe('the portal session (decision 019)', () => {
  it('is renewed after five minutes, or a quarter of a short credential lifetime', () => {
    const hours = { iat: 1000, exp: 1000 + 4 * 3600 };
    expect(sessionRefreshDue(hours, 1000 + 299)).toBe(false);
    expect(sessionRefreshDue(hours, 1000 + 300)).toBe(true);
    const short = { iat: 1000, exp: 1000 + 400 };
    expect(sessionRefreshDue(short, 1000 + 99)).toBe(false);
    expect(sessionRefreshDue(short, 1000 + 100)).toBe(true);
  });
  it('names its cookie with the __Host- prefix over https only', () => {
    expect(sessionCookieName(true)).toBe('__Host-portal-session');
    expect(sessionCookieName(false)).toBe('portal-session');
  });
});
