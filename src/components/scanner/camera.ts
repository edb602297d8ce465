/*
 * Reading the badge's QR code with the device camera, or from a photo of it (issue 11, decision
 * 027): the BarcodeDetector API where the browser has it for QR codes, else the lazily loaded
 * decoder of qr-decode.ts, through one `read(source)` function.
 */

type Source = HTMLVideoElement | ImageBitmap;
type Reader = (source: Source) => Promise<string | null>;

/** Largest side of the frame handed to the JavaScript decoder (larger frames are scaled down). */
const MAX_SIDE = 800;

type BarcodeDetectorLike = { detect: (source: Source) => Promise<{ rawValue: string }[]> };
type BarcodeDetectorClass = {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats: () => Promise<string[]>;
};

let reader: Promise<Reader> | undefined;

/** The QR reader of this browser (made once). */
export function qrReader(): Promise<Reader> {
  reader ??= makeReader().catch((error: unknown) => {
    reader = undefined;
    throw error;
  });
  return reader;
}

async function makeReader(): Promise<Reader> {
  const Native = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  const formats: string[] = Native ? await Native.getSupportedFormats().catch(() => []) : [];
  if (Native && formats.includes('qr_code')) {
    const detector = new Native({ formats: ['qr_code'] });
    return async (source) => (await detector.detect(source))[0]?.rawValue ?? null;
  }
  const { decodeQr } = await import('./qr-decode');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2d canvas');
  return async (source) => {
    const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
    const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
    if (!width || !height) return null;
    const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    context.drawImage(source, 0, 0, canvas.width, canvas.height);
    return decodeQr(context.getImageData(0, 0, canvas.width, canvas.height));
  };
}

export type CameraScan = { stop: () => void };

/**
 * Starts the camera in `video` and calls `onCode` with each code read (the same code again only
 * after 3 s, so that a badge held up does not repeat). Rejects when there is no camera or the
 * permission is refused (the error's name: NotAllowedError, NotFoundError…).
 */
export async function startCamera(video: HTMLVideoElement, onCode: (text: string) => void): Promise<CameraScan> {
  const read = await qrReader();
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
    audio: false,
  });
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = { text: '', at: 0 };
  const tick = async () => {
    if (stopped) return;
    try {
      if (video.readyState >= 2) {
        const text = await read(video);
        const now = Date.now();
        if (text && !stopped && (text !== last.text || now - last.at > 3000)) {
          last = { text, at: now };
          onCode(text);
        }
      }
    } catch {
      // A frame that could not be read: the next one.
    }
    if (!stopped) timer = setTimeout(() => void tick(), 120);
  };
  void tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}

/** The code in a photo of a badge (the fallback without a camera), or null. */
export async function readPhoto(file: Blob): Promise<string | null> {
  const read = await qrReader();
  const bitmap = await createImageBitmap(file);
  try {
    return await read(bitmap);
  } finally {
    bitmap.close();
  }
}
