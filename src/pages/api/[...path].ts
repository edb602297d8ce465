import type { APIRoute } from 'astro';
import { withContentLength } from '@server/api/content-length';
import { getRuntime } from '@server/runtime';

export const prerender = false;

/**
 * The registration API (Hono) behind Astro: one catch-all endpoint (DESIGN D3). The client's
 * address (the socket's, or behind a proxy listed in `security.allowedDomains` the first
 * X-Forwarded-For) goes along for the per-address rate limits. JSON answers carry their length
 * (withContentLength), so server.mjs leaves the small ones uncompressed.
 */
export const ALL: APIRoute = async (context) => {
  let clientAddress: string | undefined;
  try {
    clientAddress = context.clientAddress;
  } catch {
    // the adapter knows none
  }
  return withContentLength(await (await getRuntime()).app.fetch(context.request, { clientAddress }));
};
