/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('@i18n/locales').Locale;
    t: import('@i18n/i18n').Translate;
    /** The identity token from the `idc-token` cookie (verified by the API, not here). */
    token: string | null;
  }
}
