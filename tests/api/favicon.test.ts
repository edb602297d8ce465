import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { cacheIcons } from '../../server.mjs';

/*
 * /favicon.ico (issue 19: browsers ask for it whatever the pages link to, and got a 404): a real
 * icon, the site's logo (public/favicon.svg: an orange rounded square with a white T) rendered by
 * scripts/favicon.ts at 16, 32 and 48 px, served with a day's cache by server.mjs.
 */
describe('the favicon', () => {
  const ico = readFileSync('public/favicon.ico');
  const images = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const at = 6 + 16 * i;
    const size = ico.readUInt8(at);
    const png = ico.subarray(ico.readUInt32LE(at + 12), ico.readUInt32LE(at + 12) + ico.readUInt32LE(at + 8));
    return { size, height: ico.readUInt8(at + 1), image: PNG.sync.read(png) };
  });
  const pixel = (image: PNG, x: number, y: number) => {
    const i = (image.width * y + x) * 4;
    return [...image.data.subarray(i, i + 4)];
  };

  it('is an ICO of the three sizes browsers ask for, each a PNG of its stated size', () => {
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(images.map((i) => i.size)).toEqual([16, 32, 48]);
    for (const { size, height, image } of images) {
      expect(height).toBe(size);
      expect([image.width, image.height]).toEqual([size, size]);
    }
  });

  it('draws the logo: transparent rounded corners, the orange square, the white T', () => {
    const close = (actual: number[], expected: number[]) =>
      expected.every((v, i) => Math.abs(actual[i]! - v) <= 24) || `${actual.join(',')} is not ${expected.join(',')}`;
    for (const { size, image } of images) {
      const at = (fx: number, fy: number) => pixel(image, Math.floor(fx * size), Math.floor(fy * size));
      expect(pixel(image, 0, 0)[3], `${size}: corner`).toBeLessThan(64);
      // In the SVG's 40-unit box: orange at (4, 30), the T's stem (x 18–22) at (20, 24), its bar at (12, 15).
      expect(close(at(4 / 40, 30 / 40), [0xff, 0x5e, 0x00, 255]), `${size}: orange`).toBe(true);
      // At 16 px the 4-unit strokes are 1.6 px wide: no pixel is all white, but each is far from orange.
      for (const [name, x, y] of [
        ['stem', 20, 24],
        ['bar', 12, 15],
      ] as const) {
        const [r, g, b] = at(x / 40, y / 40);
        if (size >= 32) expect(close([r!, g!, b!], [255, 255, 255]), `${size}: ${name}`).toBe(true);
        else expect(Math.min(g!, b!), `${size}: ${name}`).toBeGreaterThan(180);
      }
    }
  });

  it('is cached for a day by npm start’s server, as the SVG icon; other files keep their headers', () => {
    const headers = (method: string, url: string) => {
      const set = new Map<string, string>();
      cacheIcons({ method, url }, { setHeader: (k: string, v: string) => set.set(k.toLowerCase(), v) });
      return set;
    };
    expect(headers('GET', '/favicon.ico').get('cache-control')).toBe('public, max-age=86400');
    expect(headers('HEAD', '/favicon.svg?v=2').get('cache-control')).toBe('public, max-age=86400');
    expect(headers('POST', '/favicon.ico').size).toBe(0);
    expect(headers('GET', '/badge-rights.svg').size).toBe(0);
    expect(headers('GET', '/en/favicon.ico').size).toBe(0);
  });
});
