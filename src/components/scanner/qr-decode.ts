import { binarize, Decoder, Detector, grayscale } from '@nuintun/qrcode';

/*
 * The scanner library of browsers without the BarcodeDetector API (decision 027): the decoder of
 * @nuintun/qrcode (pure JavaScript, about 14 KB gzip), loaded lazily by camera.ts, so that the
 * desk page does not carry it until a camera or a photo is used.
 */

const decoder = new Decoder();

/** The text of the first QR code found in the image, or null. */
export function decodeQr(image: ImageData): string | null {
  const luminances = grayscale(image);
  const binarized = binarize(luminances, image.width, image.height);
  const detected = new Detector().detect(binarized);
  let current = detected.next();
  while (!current.done) {
    let found: string | null = null;
    try {
      found = decoder.decode(current.value.matrix).content;
    } catch {
      // Not decodable: the next candidate region.
    }
    if (found !== null) return found;
    // Telling the detector that the region failed lets it try the remaining combinations.
    current = detected.next(false);
  }
  return null;
}
