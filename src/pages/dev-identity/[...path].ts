import type { APIRoute } from 'astro';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/** The embedded development identity service (on only while no identity provider is configured). */
export const ALL: APIRoute = async ({ request }) => (await getRuntime()).app.fetch(request);
