import { describe, expect, it } from 'vitest';
import { expiredTokenCookies } from './auth';

describe('removing the identity cookie in the browser (the 401 rule, spec §4)', () => {
  it('removes the shared cookie of the configured domain, and a host-only copy', () => {
    expect(expiredTokenCookies('.taicca.tw')).toEqual([
      'idc-token=; Path=/; Max-Age=0; SameSite=Lax',
      'idc-token=; Path=/; Max-Age=0; SameSite=Lax; Domain=.taicca.tw',
    ]);
  });

  it('without a configured domain, the host-only cookie; Secure over https', () => {
    expect(expiredTokenCookies(undefined)).toEqual(['idc-token=; Path=/; Max-Age=0; SameSite=Lax']);
    expect(expiredTokenCookies('taicca.tw', true)).toEqual([
      'idc-token=; Path=/; Max-Age=0; SameSite=Lax; Secure',
      'idc-token=; Path=/; Max-Age=0; SameSite=Lax; Secure; Domain=taicca.tw',
    ]);
  });
});
