/*
 * docs/api.md against the Hono routes (issue 19): every route the registration API registers is
 * in the routes table with its method and path, and every route the page documents (the table
 * and the `### METHOD /api/v1/…` headings) exists. Paths compare with their parameters unnamed
 * (`:orderId` = `{orderId}` = `{id}`) and without the query string.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, type TestDatabase } from '../api/helpers';

const ROOT = resolve(import.meta.dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** `GET /api/v1/orders/:orderId` and `GET /api/v1/orders/{id}?x=…` alike: `GET /api/v1/orders/{}`. */
const key = (method: string, path: string) =>
  `${method.toUpperCase()} ${path
    .split('?')[0]!
    .replace(/:[A-Za-z_]+/g, '{}')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\/$/, '')}`;

/** The rows of the routes table (`## Routes`). */
function tableRoutes(): string[] {
  const section = doc.split('\n## Routes')[1]?.split('\n## ')[0] ?? '';
  const rows: string[] = [];
  for (const [, method, path] of section.matchAll(/^\|\s*([A-Z]+)\s*\|\s*`([^`]+)`/gm))
    if (METHODS.includes(method!)) rows.push(key(method!, path!));
  return rows;
}

/** The routes the headings name (`### GET /api/v1/events · GET /api/v1/events/{id}`). */
function headingRoutes(): string[] {
  const out: string[] = [];
  for (const [, heading] of doc.matchAll(/^###\s+(.+)$/gm))
    for (const [, method, path] of heading!.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s+(\/api\/v1\/\S+)/g))
      out.push(key(method!, path!));
  return out;
}

describe('docs/api.md and the routes of the API', () => {
  let database: TestDatabase;
  let registered: Set<string>;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    const app = await createTestApp(database, {}, { operatorToken: 'docs-check' });
    registered = new Set(
      app.app.routes
        .filter((r) => METHODS.includes(r.method) && r.path.startsWith('/api/v1/'))
        .map((r) => key(r.method, r.path)),
    );
  });
  afterAll(() => database?.close());

  it('reads the routes of both (the check itself works)', () => {
    expect(registered).toContain('GET /api/v1/orders/{}');
    expect(registered).toContain('POST /api/v1/admin/orders/{}/approve');
    expect(tableRoutes()).toContain('GET /api/v1/events/{}');
    expect(headingRoutes()).toContain('POST /api/v1/files/upload');
  });

  it('every registered route is in the routes table', () => {
    const documented = new Set(tableRoutes());
    expect([...registered].filter((r) => !documented.has(r)).sort()).toEqual([]);
  });

  it('every route of the table and the headings exists', () => {
    const documented = new Set([...tableRoutes(), ...headingRoutes()]);
    expect([...documented].filter((r) => !registered.has(r)).sort()).toEqual([]);
  });

  it('the table lists each route once', () => {
    const rows = tableRoutes();
    expect(rows.filter((r, i) => rows.indexOf(r) !== i)).toEqual([]);
  });
});
