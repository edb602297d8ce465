import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';

/** A live portal in OpenID Connect mode (the default). */
const live = {
  IDENTITY_ISSUER: 'https://id.example.org',
  IDENTITY_CLIENT_SECRET: 's',
  SITE_URL: 'https://register.example.org',
  SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
  PICKUP_CODE_SECRET: 'a-long-enough-secret-value',
  SMTP_URL: 'smtp://mailer:secret@smtp.example.org:587',
  MAIL_FROM: 'TCCF <registration@example.org>',
  CONTENT_SITE_URL: 'https://content.example.org',
  CONTENT_SITE_CLIENT_SECRET: 'content-secret',
};
/** The same in agency mode. */
const agency = {
  ...live,
  IDENTITY_ISSUER: undefined,
  SESSION_SECRET: undefined,
  IDENTITY_MODE: 'agency',
  IDENTITY_URL: 'https://id.example.org',
  IDENTITY_AUDIENCE: 'registration-api',
};

describe('configuration (DESIGN D13)', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(4321);
    expect(config.devIdentity).toBe(true);
    expect(config.sandboxGateway).toBe(true);
    expect(config.NEWEBPAY_VERSION).toBe('2.0');
  });
  it('reads the organisers as lower-cased e-mails, and refuses a list that is not one', () => {
    expect(parseConfig({ ORGANISER_EMAILS: ' Olivia@Example.com, desk@example.com,' }).organiserEmails).toEqual([
      'olivia@example.com',
      'desk@example.com',
    ]);
    expect(parseConfig({}).organiserEmails).toEqual([]);
    expect(() => parseConfig({ ORGANISER_EMAILS: 'olivia, desk@example.com' })).toThrow(/ORGANISER_EMAILS/);
  });
  it('names the variable that is wrong', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ CONFERENCE_HOME_URL: 'not a url' })).toThrow(/CONFERENCE_HOME_URL/);
    expect(() => parseConfig({ NEWEBPAY_HASH_KEY: 'short' })).toThrow(/NEWEBPAY_HASH_KEY/);
  });
  it('signs in through OpenID Connect by default; the agency flow is a mode (decision 019)', () => {
    const dev = parseConfig({});
    expect(dev.IDENTITY_MODE).toBe('oidc');
    expect(dev.IDENTITY_SCOPE).toBe('openid email profile');
    expect(dev.IDENTITY_TOKEN_AUTH_METHOD).toBe('client_secret_basic');
    expect(dev.externalIdentity).toBe(false);
    const oidc = parseConfig({ ...live, ALLOW_SANDBOX_GATEWAY: 'true', ALLOW_SANDBOX_INVOICE: 'true' });
    expect(oidc).toMatchObject({ externalIdentity: true, devIdentity: false, SEED: false, devMailbox: false });
    const agent = parseConfig({ ...agency, ALLOW_SANDBOX_GATEWAY: 'true', ALLOW_SANDBOX_INVOICE: 'true' });
    expect(agent).toMatchObject({ IDENTITY_MODE: 'agency', externalIdentity: true, devIdentity: false });
    expect(parseConfig({ IDENTITY_MODE: 'agency' }).devIdentity).toBe(true);
    expect(() => parseConfig({ IDENTITY_MODE: 'saml' })).toThrow(/IDENTITY_MODE/);
  });
  it('refuses an identity provider without what it needs', () => {
    const site = { ...live, ALLOW_SANDBOX_GATEWAY: 'true', ALLOW_SANDBOX_INVOICE: 'true' };
    expect(() => parseConfig({ IDENTITY_URL: 'https://id.example.org' })).toThrow(/IDENTITY_MODE=agency/);
    expect(() => parseConfig({ ...site, IDENTITY_CLIENT_SECRET: undefined })).toThrow(/IDENTITY_CLIENT_SECRET/);
    // Without SITE_URL a forged Host would choose the sign-in redirect.
    expect(() => parseConfig({ ...site, SITE_URL: undefined })).toThrow(/SITE_URL is required/);
    expect(() => parseConfig({ ...site, SESSION_SECRET: undefined })).toThrow(/SESSION_SECRET is required/);
    expect(() => parseConfig({ ...site, SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => parseConfig({ ...site, IDENTITY_ISSUER: 'http://id.example.org' })).toThrow(/IDENTITY_ISSUER/);
    expect(parseConfig({ ...site, IDENTITY_ISSUER: 'http://127.0.0.1:4412' }).externalIdentity).toBe(true);
    expect(() => parseConfig({ ...site, IDENTITY_SCOPE: 'email profile' })).toThrow(/IDENTITY_SCOPE/);
    expect(() => parseConfig({ ...site, IDENTITY_TOKEN_AUTH_METHOD: 'none' })).toThrow(/IDENTITY_TOKEN_AUTH_METHOD/);
    // The agency's tokens are checked for their audience: other products' tokens are not ours.
    const agencySite = { ...agency, ALLOW_SANDBOX_GATEWAY: 'true', ALLOW_SANDBOX_INVOICE: 'true' };
    expect(() => parseConfig({ ...agencySite, IDENTITY_AUDIENCE: undefined })).toThrow(/IDENTITY_AUDIENCE/);
    expect(() => parseConfig({ ...agencySite, SITE_URL: undefined })).toThrow(/SITE_URL is required/);
  });
  it('keeps session lifetimes sensible', () => {
    expect(parseConfig({})).toMatchObject({ SESSION_IDLE_SECONDS: 14_400, SESSION_ABSOLUTE_SECONDS: 43_200 });
    expect(() => parseConfig({ SESSION_IDLE_SECONDS: '50000' })).toThrow(/SESSION_IDLE_SECONDS/);
    expect(() => parseConfig({ SESSION_IDLE_SECONDS: '10' })).toThrow(/SESSION_IDLE_SECONDS/);
    expect(() => parseConfig({ SESSION_ABSOLUTE_SECONDS: String(40 * 86400) })).toThrow(/SESSION_ABSOLUTE_SECONDS/);
  });
  it('refuses a live identity service without a real gateway, or a pick-up secret', () => {
    expect(() => parseConfig({ ...live })).toThrow(/NEWEBPAY_GATEWAY_URL/);
    expect(() =>
      parseConfig({
        ...live,
        PICKUP_CODE_SECRET: undefined,
        ALLOW_SANDBOX_GATEWAY: 'true',
        ALLOW_SANDBOX_INVOICE: 'true',
      }),
    ).toThrow(/PICKUP_CODE_SECRET/);
    expect(parseConfig({ ...live, ALLOW_SANDBOX_GATEWAY: 'true', ALLOW_SANDBOX_INVOICE: 'true' }).devIdentity).toBe(
      false,
    );
  });
  it('needs the merchant keys with a real gateway', () => {
    expect(() => parseConfig({ ...live, NEWEBPAY_GATEWAY_URL: 'https://core.newebpay.com/MPG/mpg_gateway' })).toThrow(
      /NEWEBPAY_MERCHANT_ID/,
    );
    const config = parseConfig({
      ...live,
      NEWEBPAY_GATEWAY_URL: 'https://core.newebpay.com/MPG/mpg_gateway',
      NEWEBPAY_MERCHANT_ID: 'MS1234',
      NEWEBPAY_HASH_KEY: '12345678901234567890123456789012',
      NEWEBPAY_HASH_IV: '1234567890123456',
      ALLOW_SANDBOX_INVOICE: 'true',
    });
    expect(config.sandboxGateway).toBe(false);
  });
  it('refuses a live portal on the sandbox e-invoice service unless allowed; needs the invoice keys with ezPay', () => {
    const site = { ...live, ALLOW_SANDBOX_GATEWAY: 'true' };
    expect(() => parseConfig(site)).toThrow(/EZPAY_URL is required when IDENTITY_ISSUER is set/);
    expect(parseConfig({ ...site, ALLOW_SANDBOX_INVOICE: 'true' }).sandboxInvoice).toBe(true);
    expect(() => parseConfig({ ...site, EZPAY_URL: 'https://inv.ezpay.com.tw' })).toThrow(/EZPAY_MERCHANT_ID/);
    const ezpay = parseConfig({
      ...site,
      EZPAY_URL: 'https://inv.ezpay.com.tw',
      EZPAY_MERCHANT_ID: 'EZ1234',
      EZPAY_HASH_KEY: '12345678901234567890123456789012',
      EZPAY_HASH_IV: '1234567890123456',
    });
    expect(ezpay.sandboxInvoice).toBe(false);
    expect(parseConfig({}).sandboxInvoice).toBe(true);
  });
  it('sends mail by SMTP when SMTP_URL is set, with its sender; else keeps it in the database outbox', () => {
    const dev = parseConfig({});
    expect(dev.SMTP_URL).toBeUndefined();
    expect(dev.devMailbox).toBe(true);
    expect(dev.MAIL_FROM).toMatch(/<.+@.+>/);
    const smtp = parseConfig({ SMTP_URL: 'smtps://u:p@mail.example.org', MAIL_FROM: 'registration@example.org' });
    expect(smtp.devMailbox).toBe(false);
    expect(() => parseConfig({ SMTP_URL: 'smtp://mail.example.org' })).toThrow(/MAIL_FROM is required/);
    expect(() => parseConfig({ SMTP_URL: 'https://mail.example.org', MAIL_FROM: 'a@b.c' })).toThrow(/SMTP_URL/);
    expect(() => parseConfig({ SMTP_URL: 'smtp://mail.example.org', MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM/);
    expect(() => parseConfig({ SMTP_URL: 'smtp://mail.example.org', MAIL_FROM: 'TCCF <a@b.c>\r\nBcc: x@y.z' })).toThrow(
      /MAIL_FROM/,
    );
  });
  it('refuses a live portal without SMTP unless the database outbox is allowed (staging); no dev mailbox there', () => {
    const site = {
      ...live,
      ALLOW_SANDBOX_GATEWAY: 'true',
      ALLOW_SANDBOX_INVOICE: 'true',
      SMTP_URL: undefined,
      MAIL_FROM: undefined,
    };
    expect(() => parseConfig(site)).toThrow(/SMTP_URL is required/);
    expect(parseConfig({ ...site, ALLOW_OUTBOX_MAIL: 'true' }).devMailbox).toBe(false);
  });
  it('refuses a live portal on the dev content site unless allowed (staging): anyone could invent works', () => {
    const site = { ...live, ALLOW_SANDBOX_GATEWAY: 'true', ALLOW_SANDBOX_INVOICE: 'true', CONTENT_SITE_URL: undefined };
    expect(() => parseConfig(site)).toThrow(/CONTENT_SITE_URL is required when IDENTITY_ISSUER is set/);
    const agencySite = {
      ...agency,
      ALLOW_SANDBOX_GATEWAY: 'true',
      ALLOW_SANDBOX_INVOICE: 'true',
      CONTENT_SITE_URL: undefined,
    };
    expect(() => parseConfig(agencySite)).toThrow(/CONTENT_SITE_URL is required when IDENTITY_URL is set/);
    expect(parseConfig({ ...site, ALLOW_DEV_CONTENT: 'true' }).devContent).toBe(true);
    expect(() => parseConfig({ ...site, ALLOW_DEV_CONTENT: '1' })).toThrow(/ALLOW_DEV_CONTENT=true/);
    // The development setup (no identity provider) keeps it without asking.
    expect(parseConfig({}).devContent).toBe(true);
  });
  it('reads the operations settings: database timeouts, the bucket timeout, the metrics token', () => {
    expect(parseConfig({})).toMatchObject({
      DB_POOL_SIZE: 10,
      DB_CONNECT_TIMEOUT_MS: 3000,
      DB_STATEMENT_TIMEOUT_MS: 5000,
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10000,
      S3_TIMEOUT_MS: 5000,
    });
    expect(parseConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(parseConfig({ DB_STATEMENT_TIMEOUT_MS: '30000' }).DB_STATEMENT_TIMEOUT_MS).toBe(30000);
    expect(() => parseConfig({ DB_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DB_CONNECT_TIMEOUT_MS — Expected 100 to 60000/);
    expect(() => parseConfig({ DB_POOL_SIZE: 'many' })).toThrow(/DB_POOL_SIZE/);
    expect(() => parseConfig({ S3_TIMEOUT_MS: '120000' })).toThrow(/S3_TIMEOUT_MS/);
    expect(() => parseConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
  it('reads works from CONTENT_SITE_URL with its client secret; else the embedded dev content site', () => {
    const dev = parseConfig({});
    expect(dev.devContent).toBe(true);
    expect(dev.CONTENT_SITE_CLIENT_ID).toBe('registration-portal');
    expect(dev.CONTENT_SITE_TIMEOUT_MS).toBe(5_000);
    expect(() => parseConfig({ CONTENT_SITE_URL: 'https://content.example.org' })).toThrow(
      /CONTENT_SITE_CLIENT_SECRET is required/,
    );
    const real = parseConfig({ CONTENT_SITE_URL: 'https://content.example.org', CONTENT_SITE_CLIENT_SECRET: 's' });
    expect(real.devContent).toBe(false);
    expect(() => parseConfig({ CONTENT_SITE_URL: 'ftp://content.example.org' })).toThrow(/CONTENT_SITE_URL/);
    expect(() => parseConfig({ CONTENT_SITE_TIMEOUT_MS: '10' })).toThrow(/CONTENT_SITE_TIMEOUT_MS/);
  });
});
