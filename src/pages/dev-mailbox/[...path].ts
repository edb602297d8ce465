import type { APIRoute } from 'astro';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/** The development mailbox (on only without SMTP_URL and without an external identity provider). */
export const ALL: APIRoute = async ({ request }) => (await getRuntime()).app.fetch(request);
