import type { Context } from 'hono';

/**
 * The SSR pages' in-process calls (src/lib/embedded-api.server.ts through the runtime): their
 * successful answers hand the payload over as an object instead of serialising it to JSON for
 * the page to parse again. Only a Request the runtime registered here is answered so: a request
 * from the network never is (the registry is keyed by the Request object itself).
 */
const slots = new WeakMap<Request, { payload?: unknown; handed: boolean }>();

/** Registers an in-process request; the slot receives the payload if a route hands it over. */
export function expectPayload(request: Request) {
  const slot: { payload?: unknown; handed: boolean } = { handed: false };
  slots.set(request, slot);
  return slot;
}

/** Hands `payload` to the in-process caller of this request; false for any other request. */
export function handOver(c: Context, payload: unknown): boolean {
  const slot = slots.get(c.req.raw);
  if (!slot) return false;
  slot.payload = payload;
  slot.handed = true;
  return true;
}

/** Whether this request is an SSR page's in-process call (part of the page's own request). */
export const isInProcessCall = (request: Request) => slots.has(request);
