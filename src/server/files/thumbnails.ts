import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/*
 * Small square thumbnails of badge photos for the badge desk (issue 11, decision 027): the desk
 * caches one per badge for offline use, so it must be a few KB, not the uploaded photo (up to
 * 10 MB). Pure JavaScript codecs (jpeg-js, pngjs): no native image library to build (DESIGN D4's
 * rule for native addons). The photo is cropped to its centre square, turned upright by its EXIF
 * orientation (phones store portraits sideways with a tag that browsers honour), averaged down
 * (box filter) and written as a JPEG.
 */

export const THUMBNAIL_SIZE = 120;
const QUALITY = 72;
/** Refuse decoding absurd images (the upload limit is 10 MB; a 100 MP JPEG still fits in it). */
const MAX_MEGAPIXELS = 60;

type Rgba = { width: number; height: number; data: Uint8Array };

/** The RGBA pixels of a PNG or JPEG, or null when the bytes are neither (or too large). */
export function decodeImage(bytes: Uint8Array): (Rgba & { orientation: number }) | null {
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50) {
      const png = PNG.sync.read(Buffer.from(bytes));
      if (png.width * png.height > MAX_MEGAPIXELS * 1e6) return null;
      return { width: png.width, height: png.height, data: new Uint8Array(png.data), orientation: 1 };
    }
    if (bytes[0] === 0xff && bytes[1] === 0xd8) {
      const image = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: MAX_MEGAPIXELS,
        maxMemoryUsageInMB: 1024,
      });
      return { ...image, orientation: jpegOrientation(bytes) };
    }
  } catch {
    return null;
  }
  return null;
}

/** The EXIF orientation (1–8) of a JPEG; 1 when it has none. */
export function jpegOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return 1;
    const marker = bytes[offset + 1]!;
    const length = view.getUint16(offset + 2);
    // Start of scan: no more metadata segments.
    if (marker === 0xda) return 1;
    if (marker === 0xe1 && offset + 10 <= bytes.length && view.getUint32(offset + 4) === 0x45786966) {
      const tiff = offset + 10;
      if (tiff + 8 > bytes.length) return 1;
      const little = view.getUint16(tiff) === 0x4949;
      const u16 = (at: number) => view.getUint16(at, little);
      const ifd = tiff + view.getUint32(tiff + 4, little);
      if (ifd + 2 > bytes.length) return 1;
      const entries = u16(ifd);
      for (let i = 0; i < entries; i++) {
        const entry = ifd + 2 + i * 12;
        if (entry + 12 > bytes.length) return 1;
        if (u16(entry) === 0x0112) {
          const value = u16(entry + 8);
          return value >= 1 && value <= 8 ? value : 1;
        }
      }
      return 1;
    }
    offset += 2 + length;
  }
  return 1;
}

/**
 * The centre square of `image`, upright (EXIF `orientation`), averaged down to `size`×`size`
 * RGBA (never scaled up: a small photo keeps its size).
 */
export function squareThumbnail(image: Rgba, orientation: number, size: number): Rgba {
  const swapped = orientation >= 5;
  const uw = swapped ? image.height : image.width;
  const uh = swapped ? image.width : image.height;
  const side = Math.min(uw, uh);
  const out = Math.max(1, Math.min(size, side));
  return sampleUpright(image, orientation, {
    x0: Math.floor((uw - side) / 2),
    y0: Math.floor((uh - side) / 2),
    width: side,
    height: side,
    outWidth: out,
    outHeight: out,
  });
}

/**
 * The whole of `image`, upright (EXIF `orientation`), averaged down to at most `maxWidth` wide
 * with its proportions kept (never scaled up): event images (issue 21).
 */
export function fitWidth(image: Rgba, orientation: number, maxWidth: number): Rgba {
  const swapped = orientation >= 5;
  const uw = swapped ? image.height : image.width;
  const uh = swapped ? image.width : image.height;
  const outWidth = Math.max(1, Math.min(maxWidth, uw));
  const outHeight = Math.max(1, Math.round((uh * outWidth) / uw));
  return sampleUpright(image, orientation, { x0: 0, y0: 0, width: uw, height: uh, outWidth, outHeight });
}

/**
 * A region of the upright image (coordinates after the EXIF `orientation` is applied), box-averaged
 * into `outWidth`×`outHeight` opaque RGBA, transparent pixels over white.
 */
function sampleUpright(
  image: Rgba,
  orientation: number,
  region: { x0: number; y0: number; width: number; height: number; outWidth: number; outHeight: number },
): Rgba {
  const { width: w, height: h, data } = image;
  const { x0, y0, outWidth, outHeight } = region;
  /** The stored pixel behind upright pixel (x, y). */
  const source = (x: number, y: number): number => {
    let sx: number;
    let sy: number;
    switch (orientation) {
      case 2:
        [sx, sy] = [w - 1 - x, y];
        break;
      case 3:
        [sx, sy] = [w - 1 - x, h - 1 - y];
        break;
      case 4:
        [sx, sy] = [x, h - 1 - y];
        break;
      case 5:
        [sx, sy] = [y, x];
        break;
      case 6:
        [sx, sy] = [y, h - 1 - x];
        break;
      case 7:
        [sx, sy] = [w - 1 - y, h - 1 - x];
        break;
      case 8:
        [sx, sy] = [w - 1 - y, x];
        break;
      default:
        [sx, sy] = [x, y];
    }
    return (sy * w + sx) * 4;
  };
  const pixels = new Uint8Array(outWidth * outHeight * 4);
  const scaleX = region.width / outWidth;
  const scaleY = region.height / outHeight;
  for (let oy = 0; oy < outHeight; oy++) {
    const ya = Math.floor(oy * scaleY);
    const yb = Math.max(ya + 1, Math.floor((oy + 1) * scaleY));
    for (let ox = 0; ox < outWidth; ox++) {
      const xa = Math.floor(ox * scaleX);
      const xb = Math.max(xa + 1, Math.floor((ox + 1) * scaleX));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let y = ya; y < yb; y++)
        for (let x = xa; x < xb; x++) {
          const i = source(x0 + x, y0 + y);
          // Transparent pixels (a PNG cut-out) over white.
          const a = data[i + 3]! / 255;
          r += data[i]! * a + 255 * (1 - a);
          g += data[i + 1]! * a + 255 * (1 - a);
          b += data[i + 2]! * a + 255 * (1 - a);
          n++;
        }
      const o = (oy * outWidth + ox) * 4;
      pixels[o] = Math.round(r / n);
      pixels[o + 1] = Math.round(g / n);
      pixels[o + 2] = Math.round(b / n);
      pixels[o + 3] = 255;
    }
  }
  return { width: outWidth, height: outHeight, data: pixels };
}

/** A JPEG thumbnail of a PNG or JPEG photo, or null when the bytes are not a readable image. */
export function photoThumbnail(bytes: Uint8Array, size = THUMBNAIL_SIZE): Uint8Array | null {
  const image = decodeImage(bytes);
  if (!image) return null;
  const thumb = squareThumbnail(image, image.orientation, size);
  return new Uint8Array(jpeg.encode(thumb, QUALITY).data);
}

/** The widths event images are served at (`?w=`): a card, a page, a wide screen. */
export const EVENT_IMAGE_WIDTHS = [320, 640, 1280] as const;

/** An event image resized to at most `width` pixels wide, as JPEG; null when the bytes are not a readable image. */
export function resizedImage(bytes: Uint8Array, width: number): Uint8Array | null {
  const image = decodeImage(bytes);
  if (!image) return null;
  return new Uint8Array(jpeg.encode(fitWidth(image, image.orientation, width), 80).data);
}
