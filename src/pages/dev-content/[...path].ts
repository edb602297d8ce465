import type { APIRoute } from 'astro';
import { MESSAGES } from '@i18n/i18n';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/**
 * The embedded development content site (on only when CONTENT_SITE_URL is unset; 404 otherwise).
 * Its pages' words come from the i18n files (`devContent.…`), handed in as a binding: the server
 * does not import them (decision 008).
 */
export const ALL: APIRoute = async ({ request }) =>
  (await getRuntime()).app.fetch(request, { devContentMessages: MESSAGES });
