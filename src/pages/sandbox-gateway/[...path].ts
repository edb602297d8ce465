import type { APIRoute } from 'astro';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/** The embedded sandbox card gateway (on only when NEWEBPAY_GATEWAY_URL is unset). */
export const ALL: APIRoute = async ({ request }) => (await getRuntime()).app.fetch(request);
