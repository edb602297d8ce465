import type { APIRoute } from 'astro';
import { opsEndpoint } from '@server/ops/ops-endpoint';

export const prerender = false;

/** GET /metrics at the site root, for load balancers and Prometheus (decision 040). */
export const GET: APIRoute = ({ request }) => opsEndpoint(request);
