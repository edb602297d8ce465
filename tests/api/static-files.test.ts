import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import send from 'send';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticFiles } from '../../server.mjs';

/*
 * server.mjs serves the built client files from a list made at start-up (decision 072): those
 * paths through `send` (immutable on /_astro/*), anything else straight to the app.
 */
describe('the built files (server.mjs staticFiles)', () => {
  const root = mkdtempSync(join(tmpdir(), 'static-files-'));
  let server: http.Server;
  let base = '';

  beforeAll(async () => {
    mkdirSync(join(root, 'client', '_astro'), { recursive: true });
    writeFileSync(join(root, 'client', '_astro', 'island.Ab12.js'), 'export const x = 1;\n');
    writeFileSync(join(root, 'client', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(root, 'client', '.hidden'), 'secret');
    writeFileSync(join(root, 'outside.txt'), 'not served');
    const serve = staticFiles(send, join(root, 'client'));
    server = http.createServer((req, res) => {
      if (serve(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`app ${req.method} ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  it('serves a built bundle, immutable, with a validator', async () => {
    const res = await fetch(`${base}/_astro/island.Ab12.js?v=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe('export const x = 1;\n');
    expect(res.headers.get('etag')).toBeTruthy();
  });

  it('serves other built files without the immutable cache; HEAD too', async () => {
    const res = await fetch(`${base}/favicon.svg`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('hands everything else to the app: pages, the API, other methods, paths out of the folder, dot files', async () => {
    for (const [method, path] of [
      ['GET', '/en/'],
      ['GET', '/api/v1/events'],
      ['POST', '/_astro/island.Ab12.js'],
      ['GET', '/_astro/../../outside.txt'],
      ['GET', '/.hidden'],
      ['GET', '/_astro/%2e%2e/%2e%2e/outside.txt'],
      ['GET', '/_astro/missing.js'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      expect(await res.text(), `${method} ${path}`).toMatch(/^app /);
    }
  });
});
