import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRequestFromNodeRequest, writeResponse } from 'astro/app/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The production entry's socket guard (`npm start`), without starting the built app.
import compression from 'compression';
import { readFileSync } from 'node:fs';
import { compressor, createPortalServer, V8_FLAGS } from '../../server.mjs';
import { withContentLength } from '@server/api/content-length';
import { createTestApp, openTestDatabase, type TestApp, type TestDatabase } from './helpers';

/**
 * The API behind what @astrojs/node does with each request (serve-app.js, its default 1 GiB
 * limit), behind server.mjs's guard and, with `compressed`, its compression and the catch-all
 * route's Content-Length, on a free port for the describe block it is called in.
 */
function serve(config: Record<string, string>, options: { compressed?: boolean } = {}) {
  const served = { port: 0 };
  let database: TestDatabase;
  let app: TestApp;
  let server: http.Server;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp(database, config);
    const astroLike = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const request = createRequestFromNodeRequest(req, { bodySizeLimit: 1024 ** 3 });
      const response = await app.app.fetch(request);
      await writeResponse(options.compressed ? await withContentLength(response) : response, res);
    };
    const compress = compressor(compression);
    server = createPortalServer((req: http.IncomingMessage, res: http.ServerResponse) =>
      options.compressed ? compress(req as never, res as never, () => void astroLike(req, res)) : astroLike(req, res),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    served.port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await database.close();
  });
  return served;
}

/**
 * The node:http layer of `npm start` (issue 12): the API behind the same request conversion as
 * Astro's node adapter (createRequestFromNodeRequest / writeResponse), behind server.mjs's guard,
 * over a real socket. A body over the limit sent chunked is answered with the 400 body and the
 * connection ends cleanly (no reset); TRACE and other methods the app cannot take get 405.
 */
describe('the node:http guard of server.mjs', () => {
  const served = serve({ API_BODY_LIMIT_BYTES: '65536' });
  let port: number;
  beforeAll(() => {
    port = served.port;
  });

  /** Sends a raw request, then `chunks` chunks of 16 KiB, chunked; resolves when the socket closes or `idleMs` passes. */
  function rawChunked(head: string, chunks: number, idleMs = 3000) {
    return new Promise<{ response: string; error: string | null; closed: boolean; sent: number }>((done) => {
      const socket = net.connect(port, '127.0.0.1');
      let response = '';
      let error: string | null = null;
      let sent = 0;
      let closed = false;
      const finish = () => done({ response, error, closed, sent });
      socket.on('data', (d) => (response += d.toString()));
      socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      socket.on('close', () => {
        closed = true;
        finish();
      });
      socket.write(head);
      const chunk = 'x'.repeat(16_384);
      const pump = () => {
        while (sent < chunks) {
          sent++;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', pump);
        }
        socket.write('0\r\n\r\n');
        // Keep-alive: the server keeps the connection once the body has been read to its end.
        setTimeout(() => {
          socket.end();
        }, idleMs).unref();
      };
      pump();
    });
  }

  it('answers a chunked JSON body over the limit with the 400 body, then ends the connection cleanly', async () => {
    const head =
      'POST /api/v1/demonstration_order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Authorization: Bearer whatever\r\nTransfer-Encoding: chunked\r\n\r\n';
    // 4 MiB against a 64 KiB limit.
    const result = await rawChunked(head, 256, 500);
    expect(result.error).toBeNull();
    expect(result.sent).toBe(256);
    expect(result.response).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(result.response.slice(result.response.indexOf('{'), result.response.lastIndexOf('}') + 1));
    expect(body).toMatchObject({ code: 'payload_too_large', error: expect.stringContaining('65536') });
  });

  it('keeps the connection usable after such a body (the rest was read and dropped)', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    const chunk = 'y'.repeat(16_384);
    let body = '';
    for (let i = 0; i < 16; i++) body += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    socket.write(
      'POST /api/v1/demonstration_order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Transfer-Encoding: chunked\r\n\r\n${body}0\r\n\r\n`,
    );
    socket.write('GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await new Promise((r) => socket.on('close', r));
    const statuses = [...got.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(['400', '200']);
  });

  it.each(['TRACE', 'PROPFIND', 'CONNECT'])('answers %s with 405 and Allow, not 500', async (method) => {
    const res = await new Promise<http.IncomingMessage>((done, fail) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method,
        path: method === 'CONNECT' ? '127.0.0.1:1' : '/api/v1/events',
      });
      req.on('response', done);
      req.on('connect', (r) => done(r));
      req.on('error', fail);
      req.end();
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  });
  /** One raw request over a socket (any Host header); the answer's status line and body. */
  async function rawGet(host: string, path = '/api/v1/events') {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    await new Promise((r) => socket.on('close', r));
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1]), body: got.slice(got.indexOf('\r\n\r\n') + 4) };
  }

  // Issue 20: a Host with a user part made undici refuse the request URL: a 500 on every route.
  it.each(['x@y', 'x@127.0.0.1', 'a b', 'host/path', 'host?q'])('answers Host %j with 400, not 500', async (host) => {
    const res = await rawGet(host);
    expect(res.status).toBe(400);
    expect(res.body).toContain('"code":"invalid_host"');
  });

  it.each(['127.0.0.1', '127.0.0.1:8080', 'localhost', 'portal.example.org', '[::1]:4321'])(
    'serves Host %j',
    async (host) => {
      expect((await rawGet(host)).status).toBe(200);
    },
  );
});

/** A node:http answer of `handler` behind createPortalServer with `options`, over a real socket. */
async function answerOf(handler: http.RequestListener, options: { hsts?: boolean } = {}) {
  const server = createPortalServer(handler, options);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/_astro/app.js`);
    await res.arrayBuffer();
    return res;
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

describe('security headers on every answer of server.mjs (issue 20)', () => {
  // What the adapter's static file handler does: it answers before any Astro middleware runs.
  const staticFile: http.RequestListener = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=31536000, immutable' });
    res.end('export {};');
  };

  it('sends nosniff with static files too', async () => {
    const res = await answerOf(staticFile);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('sends Strict-Transport-Security only for an https public origin', async () => {
    expect((await answerOf(staticFile, { hsts: true })).headers.get('strict-transport-security')).toBe(
      'max-age=31536000',
    );
    expect((await answerOf(staticFile)).headers.get('strict-transport-security')).toBeNull();
  });

  it('keeps a stricter value the app set itself', async () => {
    const res = await answerOf(
      (_req, res) => {
        res.writeHead(200, { 'strict-transport-security': 'max-age=63072000; includeSubDomains' });
        res.end();
      },
      { hsts: true },
    );
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  });
});

describe('compression of API answers (server.mjs with the catch-all API route)', () => {
  const served = serve({}, { compressed: true });
  let port: number;
  beforeAll(() => {
    port = served.port;
  });

  const get = (path: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }>((done, fail) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          let bytes = 0;
          res.on('data', (d: Buffer) => (bytes += d.length));
          res.on('end', () => done({ status: res.statusCode!, headers: res.headers, bytes }));
        })
        .on('error', fail);
    });

  it('sends a small JSON answer as it is, with its length (no compression of 60 bytes)', async () => {
    const res = await get('/api/v1/events/no-such-event');
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.bytes);
    expect(res.bytes).toBeLessThan(512);
  });

  it('still compresses a JSON answer over the threshold', async () => {
    const res = await get('/api/v1/reference/countries');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
  });
});

describe('the V8 flags of a production instance (decision 033)', () => {
  it('are the ones npm start and npm run start:built give node', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['start', 'start:built']) {
      expect(scripts[name]).toContain(`node ${V8_FLAGS.join(' ')} server.mjs`);
    }
  });
});
