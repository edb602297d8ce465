import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { decodeLeniently, hasNul, NUL_MESSAGE, type ValidationIssue } from '@domain/validation';
import { badRequest, errorBody, type ApiError } from '../api/errors';

/** A route parameter's name as the wire spells it (orderId → order_id). */
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** A name that is shown back to the client, with any NUL in it escaped. */
const shown = (name: string) => name.replace(/\u0000/g, '\\u0000');

/**
 * The 400 `validation_failed` of fields holding U+0000, in the shape of every other validation
 * error: `{code, message, error, issues: [{path, message}]}`. Fields are named as the wire names
 * them (a bare name gets the standard message).
 */
export function nulRefusal(fields: (string | ValidationIssue)[]): ApiError {
  const issues = fields.map((f) =>
    typeof f === 'string' ? { path: shown(f), message: NUL_MESSAGE } : { path: shown(f.path), message: f.message },
  );
  return badRequest('validation_failed', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
}

/** The name of the route parameter at `index` of the matched route pattern, if that segment is one. */
function paramName(pattern: string, index: number): string | undefined {
  const segment = pattern.split('/')[index];
  const match = segment && /^:([A-Za-z0-9_]+)/.exec(segment);
  return match ? match[1] : undefined;
}

/**
 * Refuses, before any handler or database sees them, requests whose query parameter names or
 * values, or decoded path segments, hold U+0000: PostgreSQL refuses NUL in text, which would
 * otherwise surface as a 500. Request bodies are covered by `check` (JSON) and the upload route.
 */
export const nulGuard: MiddlewareHandler = async (c, next) => {
  const url = new URL(c.req.url);
  const fields: string[] = [];

  const segments = url.pathname.split('/');
  const pattern = routePath(c, -1);
  segments.forEach((segment, index) => {
    if (!hasNul(segment) && !hasNul(decodeLeniently(segment))) return;
    const name = paramName(pattern, index);
    fields.push(name ? snake(name) : 'path');
  });

  // Each part of the query string, decoded as c.req.query() decodes it ('+' is a space).
  for (const pair of url.search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const name = decodeLeniently(rawName.replace(/\+/g, ' '));
    const value = decodeLeniently(rawValue.replace(/\+/g, ' '));
    if (hasNul(name) || hasNul(value)) fields.push(name);
  }

  if (fields.length) return c.json(errorBody(nulRefusal([...new Set(fields)])), 400);
  await next();
};
