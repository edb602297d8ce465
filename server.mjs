// Production entry (`npm start`): the built Astro app behind node:http with br/gzip compression.
// Astro's standalone server does not compress; this wrapper does, and keeps the adapter's static
// file handling (immutable cache headers on /_astro/*).
import http from 'node:http';
import compression from 'compression';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { handler } = await import('./dist/server/entry.mjs');

const compress = compression({
  threshold: 512,
  // Server-sent events and already-compressed images are left alone.
  filter: (req, res) => !/^(image\/(png|jpeg|webp|avif)|text\/event-stream)/.test(String(res.getHeader('content-type') ?? '')) && compression.filter(req, res),
  brotli: { params: { 1: 5 } },
});

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? 'localhost';
const server = http.createServer((req, res) => compress(req, res, () => handler(req, res)));
server.listen(port, host, () => {
  console.log(JSON.stringify({ level: 'info', message: `portal listening on http://${host}:${port}` }));
  // Warm the database and API so the first visitor does not wait for migrations.
  fetch(`http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/api/v1/events`).catch(() => {});
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
