import { afterEach, describe, expect, it, vi } from 'vitest';

// A live configuration whose secrets are easy to spot in whatever page code can read.
const SECRETS = {
  DATABASE_URL: 'postgres://portal:db-password-SECRET@db.example.org:5432/portal',
  IDENTITY_CLIENT_SECRET: 'client-secret-SECRET',
  NEWEBPAY_HASH_KEY: 'hashkey-SECRET-90123456789012345',
  NEWEBPAY_HASH_IV: 'hashiv-SECRET-56',
  EZPAY_HASH_KEY: 'ezpaykey-SECRET-0123456789012345',
  EZPAY_HASH_IV: 'ezpayiv-SECRET-7',
  PICKUP_CODE_SECRET: 'pickup-code-SECRET-value',
  OPERATOR_TOKEN: 'operator-token-SECRET-0123456789',
  SESSION_SECRET: 'session-secret-SECRET-0123456789-abcdef',
  SMTP_URL: 'smtp://mailer:smtp-password-SECRET@smtp.example.org:587',
  CONTENT_SITE_CLIENT_SECRET: 'content-site-SECRET-value',
  METRICS_TOKEN: 'metrics-token-SECRET-0123456789',
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('portal config (public settings for page code)', () => {
  it('exposes the public settings and none of the secrets', async () => {
    vi.stubEnv('IDENTITY_ISSUER', 'https://id.example.org');
    vi.stubEnv('NEWEBPAY_GATEWAY_URL', 'https://core.newebpay.com/MPG/mpg_gateway');
    vi.stubEnv('NEWEBPAY_MERCHANT_ID', 'MS1234');
    vi.stubEnv('EZPAY_URL', 'https://inv.ezpay.com.tw');
    vi.stubEnv('EZPAY_MERCHANT_ID', 'EZ1234');
    vi.stubEnv('SITE_URL', 'https://portal.example.org');
    vi.stubEnv('API_BASE_URL', 'https://api.example.org');
    vi.stubEnv('BANK_NAME', 'Example Bank');
    vi.stubEnv('BANK_NAME_ZH', '範例銀行');
    vi.stubEnv('MAIL_FROM', 'TCCF <registration@example.org>');
    // A live portal reads works from a real content site (issue 20).
    vi.stubEnv('CONTENT_SITE_URL', 'https://content.example.org');
    for (const [name, value] of Object.entries(SECRETS)) vi.stubEnv(name, value);
    // Imported after the environment is set: the configuration is read once, on first use.
    const { portalConfig } = await import('./portal-config.server');

    const config = portalConfig();
    expect(Object.keys(config).sort()).toEqual([
      'apiBaseUrl',
      'authCookieDomain',
      'bank',
      'conferenceHomeUrl',
      'contentSiteUrl',
      'identityMode',
      'listen',
      'memberCentreUrl',
      'requestTimeoutMs',
      'siteUrl',
      'venueMapUrl',
    ]);
    expect(config.siteUrl).toBe('https://portal.example.org');
    expect(config.apiBaseUrl).toBe('https://api.example.org');
    expect(config.bank.name).toBe('Example Bank');
    expect(config.bank.nameZh).toBe('範例銀行');
    // Unset: the Chinese default of the placeholder account.
    expect(config.bank.accountNameZh).toBe('文化內容策進院');
    const serialized = JSON.stringify(config);
    expect(serialized).not.toMatch(/SECRET/);
  });
});
