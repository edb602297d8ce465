/**
 * Writes public/favicon.ico from public/favicon.svg (the logo the pages link to), for browsers
 * and tools that ask for /favicon.ico whatever a page links to (issue 19): Chromium renders the
 * SVG at 16, 32 and 48 px on a transparent background, and the ICO holds the three PNGs (an ICO
 * may carry PNG images since Windows Vista; every current browser reads them).
 *
 *   npx tsx scripts/favicon.ts      after a change of public/favicon.svg; commit both files
 *
 * Chromium: CHROMIUM_PATH, else /usr/bin/chromium when present, else Playwright's own.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

export const ICON_SIZES = [16, 32, 48] as const;

/** An ICO file of PNG images (ICONDIR, one ICONDIRENTRY each, then the images). */
export function icoOf(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

async function main() {
  const svg = readFileSync('public/favicon.svg', 'utf8');
  const executablePath =
    process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    const images = [];
    for (const size of ICON_SIZES) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`,
      );
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
      const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
      images.push({ size, png });
    }
    writeFileSync('public/favicon.ico', icoOf(images));
    console.log(`public/favicon.ico: ${ICON_SIZES.join(', ')} px`);
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
