import { expect, test } from '@playwright/test';

/*
 * The operations endpoints of the built server (issue 20, decision 040): at the site root, never
 * sent to a locale; metrics by route pattern; a request id on every answer; nosniff on static
 * files, which the adapter serves before any middleware.
 */
test.describe('operations endpoints', () => {
  test('GET /healthz and /readyz answer at the site root, with no redirect to a locale', async ({ request }) => {
    const live = await request.get('/healthz', { maxRedirects: 0 });
    expect(live.status()).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await request.get('/readyz', { maxRedirects: 0 });
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { database: { status: 'ok' }, storage: { status: 'ok' } },
    });
    expect(ready.headers()['cache-control']).toBe('no-store');
  });

  test('GET /metrics: Prometheus text, pages and API by route pattern', async ({ request }) => {
    expect((await request.get('/en/events/opening-forum')).status()).toBe(200);
    expect((await request.get('/api/v1/events/opening-forum')).status()).toBe(200);
    const res = await request.get('/metrics');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(
      /portal_http_request_duration_seconds_count\{route="\/\[locale\]\/events\/\[eventId\]",method="GET",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /portal_http_request_duration_seconds_count\{route="\/api\/v1\/events\/:eventId",method="GET",status="200"\} \d+/,
    );
    expect(text).not.toContain('opening-forum');
    expect(text).toContain('portal_db_available 1');
  });

  test('every answer carries a request id: the one sent, or a new one', async ({ request }) => {
    const page = await request.get('/en/', { headers: { 'x-request-id': 'e2e-trace-000001' } });
    expect(page.headers()['x-request-id']).toBe('e2e-trace-000001');
    const api = await request.get('/api/v1/events', { headers: { 'x-request-id': 'e2e-trace-000002' } });
    expect(api.headers()['x-request-id']).toBe('e2e-trace-000002');
    expect((await request.get('/zh-tw/')).headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('static files carry nosniff', async ({ request, page }) => {
    await page.goto('/en/');
    const asset = await page.evaluate(
      () => document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href^="/_astro/"]')?.href ?? '',
    );
    expect(asset).toContain('/_astro/');
    const res = await request.get(asset);
    expect(res.status()).toBe(200);
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    expect((await request.get('/favicon.svg')).headers()['x-content-type-options']).toBe('nosniff');
  });
});
