import { getConfig } from '@server/config';
import type { Locale } from '@i18n/locales';

/** Where and to whom transfers go: shown on the pay page for ATM transfers and remittances. */
export interface BankTransferInstructions {
  name: string;
  /** The bank's name in Chinese (zh-TW pay page). */
  nameZh: string;
  code: string;
  accountName: string;
  /** The account holder's name in Chinese (zh-TW pay page). */
  accountNameZh: string;
  accountNumber: string;
  swift: string;
}

/**
 * The settings page code may read. Everything here is public: pages print it and islands
 * serialize it into the HTML, so no secret (hash keys, client secret, pick-up secret, operator
 * token, database URL) may ever be added.
 */
export interface PortalConfig {
  /** Public origin of the portal; undefined: take it from each request. */
  siteUrl: string | undefined;
  /**
   * How users sign in (decision 019): `oidc`, after which the portal's own session cookie is the
   * credential, or `agency`, whose `idc-token` cookie is.
   */
  identityMode: 'oidc' | 'agency';
  /** Where `node server.mjs` listens: without `siteUrl`, the only Host a request may name. */
  listen: { host: string; port: number };
  conferenceHomeUrl: string;
  /** The identity service's member centre; undefined: the dev identity service's page. */
  memberCentreUrl: string | undefined;
  venueMapUrl: string;
  /** Domain of the identity token cookie; undefined: the portal's own host. */
  authCookieDomain: string | undefined;
  bank: BankTransferInstructions;
  /** The registration API the pages call; undefined: the embedded one, in-process. */
  apiBaseUrl: string | undefined;
  /** Where registrants upload their works: the content site; undefined: the embedded dev content site (/dev-content). */
  contentSiteUrl: string | undefined;
  requestTimeoutMs: number;
}

/**
 * The public settings for pages, features and components: the one module of page code that
 * reads the server configuration (DESIGN §3). It copies fields one by one, so a new variable in
 * `@server/config` stays out of page code until someone adds it here on purpose.
 */
export function portalConfig(): PortalConfig {
  const config = getConfig();
  return {
    siteUrl: config.SITE_URL,
    identityMode: config.IDENTITY_MODE,
    listen: { host: config.HOST, port: config.PORT },
    conferenceHomeUrl: config.CONFERENCE_HOME_URL,
    memberCentreUrl: config.MEMBER_CENTRE_URL,
    venueMapUrl: config.VENUE_MAP_URL,
    authCookieDomain: config.AUTH_COOKIE_DOMAIN,
    bank: {
      name: config.BANK_NAME,
      nameZh: config.BANK_NAME_ZH,
      code: config.BANK_CODE,
      accountName: config.BANK_ACCOUNT_NAME,
      accountNameZh: config.BANK_ACCOUNT_NAME_ZH,
      accountNumber: config.BANK_ACCOUNT_NUMBER,
      swift: config.BANK_SWIFT_CODE,
    },
    apiBaseUrl: config.API_BASE_URL,
    contentSiteUrl: config.CONTENT_SITE_URL,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
  };
}

/**
 * Where works are registered: the content site. Until the portal's configuration names one, the
 * embedded development content site (`/dev-content`).
 */
export function contentSiteHref(locale: Locale): string {
  const url = new URL(portalConfig().contentSiteUrl ?? '/dev-content', 'http://portal.invalid');
  url.searchParams.set('lang', locale);
  return url.origin === 'http://portal.invalid' ? `${url.pathname}${url.search}` : url.href;
}
