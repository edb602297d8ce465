import type { APIRoute } from 'astro';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/** The development mailbox (on only when neither SMTP_URL nor IDENTITY_URL is set). */
export const ALL: APIRoute = async ({ request }) => (await getRuntime()).app.fetch(request);
