// Production entry (`npm start`): the built Astro app behind node:http with br/gzip compression.
// Astro's standalone server does not compress; this wrapper does, and keeps the adapter's static
// file handling (immutable cache headers on /_astro/*).
import http from 'node:http';
import compression from 'compression';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { handler } = await import('./dist/server/entry.mjs');

const compress = compression({
  threshold: 512,
  // Already-compressed images are left alone.
  filter: (req, res) =>
    !/^image\/(png|jpeg|webp|avif)/.test(String(res.getHeader('content-type') ?? '')) && compression.filter(req, res),
  brotli: { params: { 1: 5 } },
});

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? 'localhost';
const server = http.createServer((req, res) => compress(req, res, () => handler(req, res)));
server.listen(port, host, async () => {
  // Start-up check: configuration, database, migrations and seed are loaded by the first API
  // request. A portal that cannot serve it refuses to run (DESIGN D13) instead of answering 500s.
  const local = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  try {
    const res = await fetch(`${local}/api/v1/events`);
    if (!res.ok) throw new Error(`GET /api/v1/events answered ${res.status}`);
    console.log(JSON.stringify({ level: 'info', message: `portal ready on http://${host}:${port}` }));
  } catch (error) {
    console.error(
      JSON.stringify({ level: 'error', message: 'start-up check failed; see the error above', error: String(error) }),
    );
    process.exit(1);
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
