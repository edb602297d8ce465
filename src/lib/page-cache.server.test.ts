import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheablePage, cachedPage, clearPageCache, storePage } from './page-cache.server';

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status: 200, headers: { 'content-type': 'text/html', ...headers } });

describe('the rendered-page cache (decision 032)', () => {
  afterEach(clearPageCache);

  it('caches the order list only: GET, no query', () => {
    expect(cacheablePage('GET', new URL('http://x/en/account/orders'))).toBe(true);
    expect(cacheablePage('GET', new URL('http://x/zh-tw/account/orders'))).toBe(true);
    expect(cacheablePage('GET', new URL('http://x/en/account/orders?page=2'))).toBe(false);
    expect(cacheablePage('POST', new URL('http://x/en/account/orders'))).toBe(false);
    expect(cacheablePage('GET', new URL('http://x/en/account/badge'))).toBe(false);
  });

  it('serves a page only at the version it was rendered at, never its cookies', async () => {
    const slot = { key: '/en/account/orders\nen\nuser-1', version: '3@t' };
    const sent = await storePage(slot, html('<p>v3</p>', { 'set-cookie': 'portal-session=secret', 'x-a': '1' }));
    expect(await sent.text()).toBe('<p>v3</p>');
    const hit = cachedPage(slot)!;
    expect(await hit.text()).toBe('<p>v3</p>');
    expect(hit.headers.get('x-a')).toBe('1');
    expect(hit.headers.get('set-cookie')).toBeNull();
    expect(cachedPage({ ...slot, version: '4@t' })).toBeNull();
    expect(cachedPage({ ...slot, key: '/en/account/orders\nen\nuser-2' })).toBeNull();
  });

  it('keeps neither errors nor other content', async () => {
    const slot = { key: 'k', version: '1' };
    await storePage(slot, new Response('oops', { status: 500, headers: { 'content-type': 'text/html' } }));
    await storePage(slot, new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }));
    expect(cachedPage(slot)).toBeNull();
  });

  it('answers in the encoding the request takes, compressed once', async () => {
    const slot = { key: 'k', version: '1' };
    const page = '<p>' + 'order '.repeat(2000) + '</p>';
    await storePage(slot, html(page));
    const br = cachedPage(slot, 'gzip, deflate, br')!;
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(brotliText(brBytes)).toBe(page);
    const gz = cachedPage(slot, 'gzip;q=1, br;q=0')!;
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(page);
    const plain = cachedPage(slot, null)!;
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(page);
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(page));
  });
});

const brotliText = (bytes: Uint8Array) => brotliDecompressSync(bytes).toString();
