/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('@i18n/locales').Locale;
    t: import('@i18n/i18n').Translate;
    /**
     * The credential the pages forward to the API (verified by the API, not here): the portal's
     * session from its cookie in OIDC mode, the agency's token from `idc-token` in agency mode.
     */
    token: string | null;
  }
}
