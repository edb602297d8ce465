import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { fitWidth, jpegOrientation, photoThumbnail, resizedImage, squareThumbnail } from './thumbnails';

/** An image whose top half is red and bottom half blue. */
function halves(width: number, height: number) {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const top = y < height / 2;
      data.set(top ? [255, 0, 0, 255] : [0, 0, 255, 255], i);
    }
  return { width, height, data };
}

/** A JPEG with an EXIF APP1 segment carrying `orientation` (big-endian TIFF), right after SOI. */
function jpegWithOrientation(image: { width: number; height: number; data: Uint8Array }, orientation: number) {
  const plain = new Uint8Array(jpeg.encode(image, 90).data);
  const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const length = payload.length + 2;
  const app1 = [0xff, 0xe1, length >> 8, length & 0xff, ...payload];
  return new Uint8Array([...plain.subarray(0, 2), ...app1, ...plain.subarray(2)]);
}

const pixel = (img: { width: number; data: Uint8Array }, x: number, y: number) => {
  const i = (y * img.width + x) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
};
const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;

describe('photo thumbnails', () => {
  it('crops the centre square and averages it down to a small JPEG', () => {
    const png = PNG.sync.write(
      Object.assign(new PNG({ width: 600, height: 400 }), { data: Buffer.from(halves(600, 400).data) }),
    );
    const thumb = photoThumbnail(new Uint8Array(png), 120)!;
    expect([...thumb.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(thumb.length).toBeLessThan(8_000);
    const decoded = jpeg.decode(thumb, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([120, 120]);
    expect(isRed(pixel(decoded, 60, 10))).toBe(true);
    expect(isBlue(pixel(decoded, 60, 110))).toBe(true);
  });

  it('turns a JPEG upright by its EXIF orientation', () => {
    const stored = halves(200, 100);
    const bytes = jpegWithOrientation(stored, 6);
    expect(jpegOrientation(bytes)).toBe(6);
    expect(jpegOrientation(new Uint8Array(jpeg.encode(stored, 90).data))).toBe(1);
    const decoded = jpeg.decode(photoThumbnail(bytes, 50)!, { useTArray: true });
    // Orientation 6 is shown turned 90° clockwise: the stored top (red) is on the right.
    expect(isRed(pixel(decoded, 45, 25))).toBe(true);
    expect(isBlue(pixel(decoded, 4, 25))).toBe(true);
  });

  it('never scales up, and maps every orientation inside the image', () => {
    const small = halves(30, 40);
    for (let o = 1; o <= 8; o++) {
      const out = squareThumbnail(small, o, 120);
      expect([out.width, out.height]).toEqual([30, 30]);
      expect(out.data.every((v) => Number.isFinite(v))).toBe(true);
    }
  });

  it('answers null for bytes that are not an image', () => {
    expect(photoThumbnail(new Uint8Array([0x25, 0x50, 0x44, 0x46]))).toBeNull();
    expect(photoThumbnail(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0]))).toBeNull();
  });
});

describe('event images (issue 21)', () => {
  const solid = (width: number, height: number) => ({
    width,
    height,
    data: new Uint8Array(width * height * 4).fill(200),
  });

  it('keep their proportions, upright, never scaled up', () => {
    expect(fitWidth(solid(200, 100), 1, 50)).toMatchObject({ width: 50, height: 25 });
    // Orientation 6 (a phone's portrait stored sideways): upright it is 100×200.
    expect(fitWidth(solid(200, 100), 6, 50)).toMatchObject({ width: 50, height: 100 });
    expect(fitWidth(solid(40, 30), 1, 1280)).toMatchObject({ width: 40, height: 30 });
  });

  it('are served as JPEG at the width asked', () => {
    const png = new PNG({ width: 300, height: 150 });
    png.data.fill(120);
    const out = resizedImage(new Uint8Array(PNG.sync.write(png)), 100);
    expect(out).not.toBeNull();
    const decoded = jpeg.decode(out!);
    expect([decoded.width, decoded.height]).toEqual([100, 50]);
    expect(resizedImage(new Uint8Array([1, 2, 3]), 100)).toBeNull();
  });
});
