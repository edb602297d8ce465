import type { APIRoute } from 'astro';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/** The registration API (Hono) behind Astro: one catch-all endpoint (DESIGN D3). */
export const ALL: APIRoute = async ({ request }) => (await getRuntime()).app.fetch(request);
