import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, ROLES, type Role } from '@domain/roles';
import { organisers } from '@server/db/schema';
import { rightOf, type RouteRight } from '@server/api/routes/admin';
import { bearer, createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

/*
 * The role × route matrix (issue 21): every back-office route of the app, read from its route
 * table (a route added later is in the matrix without being listed here), with each role: a role
 * with the route's right is let through (anything but 403), one without it gets 403 with the error
 * body; a visitor gets 401, a registrant 403. A route that names no right fails the test.
 */

const UUID = '00000000-0000-4000-8000-000000000000';
/** A value for each path parameter: found or not, the right is checked before. */
const PARAMS: Record<string, string> = {
  orderNo: 'TC1',
  slug: 'no-such-event',
  file: 'orders.csv',
  email: 'nobody@example.com',
};
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? UUID);

type AdminRoute = { method: string; path: string; right: RouteRight | undefined };

/** The `/admin/*` routes of the app's route table, each with the right its middleware checks. */
function adminRoutes(app: TestApp): AdminRoute[] {
  const found = new Map<string, AdminRoute>();
  for (const r of app.app.routes) {
    if (!r.path.startsWith('/api/v1/admin/') || r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    const route = found.get(key) ?? { method: r.method, path: r.path, right: undefined };
    route.right ??= rightOf(r.handler);
    found.set(key, route);
  }
  return [...found.values()];
}

describe.each(DATABASES)('back office: role × route matrix (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  const tokens = {} as Record<Role | 'registrant', string>;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.reset();
    app = await createTestApp(database, { ORGANISER_EMAILS: 'boss@example.com' });
    await database.db
      .insert(organisers)
      .values(
        ROLES.filter((r) => r !== 'admin').map((role) => ({ email: `${role}@example.com`, role, grantedBy: 'test' })),
      );
    tokens.admin = (await signIn(app, 'boss@example.com')).token;
    for (const role of ROLES.filter((r) => r !== 'admin'))
      tokens[role] = (await signIn(app, `${role}@example.com`)).token;
    tokens.registrant = (await signIn(app, 'amy@example.com')).token;
  });
  afterAll(() => database.close());

  const call = (route: AdminRoute, token: string | null) =>
    app.request(concrete(route.path), {
      method: route.method,
      headers: {
        ...(token ? bearer(token).headers : {}),
        ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
      },
      ...(route.method === 'GET' ? {} : { body: '{}' }),
    });

  it('finds the back office routes, and every one names its right', () => {
    const routes = adminRoutes(app);
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((r) => !r.right).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('the rights that matter: the desk reaches only the desk; the team is the admins’; money is finance’s', () => {
    const routes = adminRoutes(app);
    const rightOfRoute = (method: string, path: string) =>
      routes.find((r) => r.method === method && r.path === `/api/v1/admin${path}`)?.right;
    expect(rightOfRoute('GET', '/me')).toBe('member');
    for (const r of routes.filter((x) => x.path.startsWith('/api/v1/admin/desk/'))) expect(r.right).toBe('desk');
    for (const r of routes.filter((x) => /\/admin\/(team|audit)/.test(x.path))) expect(r.right).toBe('team');
    for (const r of routes.filter((x) => /\/admin\/(exports|transfers|bank-|refunds)/.test(x.path)))
      expect(r.right).toBe('money');
    expect(rightOfRoute('POST', '/orders/:orderNo/approve')).toBe('review');
    expect(rightOfRoute('POST', '/orders/:orderNo/mark-paid')).toBe('money');
    // Nothing a viewer may do changes anything.
    for (const r of routes.filter((x) => x.method !== 'GET')) expect(can('viewer', r.right as never)).toBe(false);
  });

  it('lets each role through where its right allows, and refuses it with 403 elsewhere', async () => {
    const outcomes: string[] = [];
    for (const route of adminRoutes(app)) {
      for (const role of ROLES) {
        const allowed = route.right === 'member' || can(role, route.right!);
        const res = await call(route, tokens[role]);
        const body = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
        if (allowed && (res.status === 403 || res.status >= 500))
          outcomes.push(`${role} ${route.method} ${route.path}: ${res.status} (allowed)`);
        if (!allowed && (res.status !== 403 || body?.code !== 'forbidden'))
          outcomes.push(`${role} ${route.method} ${route.path}: ${res.status} ${JSON.stringify(body)} (refused)`);
      }
    }
    expect(outcomes).toEqual([]);
  });

  it('refuses a visitor (401) and a registrant (403) on every route', async () => {
    const outcomes: string[] = [];
    for (const route of adminRoutes(app)) {
      const visitor = await call(route, null);
      if (visitor.status !== 401) outcomes.push(`visitor ${route.method} ${route.path}: ${visitor.status}`);
      const registrant = await call(route, tokens.registrant);
      if (registrant.status !== 403) outcomes.push(`registrant ${route.method} ${route.path}: ${registrant.status}`);
    }
    expect(outcomes).toEqual([]);
  });
});
