import type { APIRoute } from 'astro';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/** The embedded development identity service (on only when IDENTITY_URL is unset). */
export const ALL: APIRoute = async ({ request }) => (await getRuntime()).app.fetch(request);
