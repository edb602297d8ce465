import { useEffect, useId, useRef, useState } from 'react';
import type { CameraScan } from './camera';

/** The words of the scanner (`admin.desk.camera.*`, `admin.desk.photo.*`), with `{{name}}` values. */
type Words = (key: string, values?: Record<string, string | number>) => string;

/**
 * The scanner of the badge desk (issue 11, decision 027): the device's camera (started on demand,
 * its reader loaded then) or a photo of the code; each code read goes to `onCode`. The badge desk
 * and an exhibitor's table check-in (issue 23) use this one component.
 */
export function CameraScanner({ t, onCode }: { t: Words; onCode: (code: string) => void }) {
  const ids = { photo: useId() };
  const camera = useCamera(t, onCode);
  const { videoRef } = camera;
  const [photoError, setPhotoError] = useState(false);

  async function onPhoto(file: File | undefined) {
    setPhotoError(false);
    if (!file) return;
    try {
      const { readPhoto } = await import('./camera');
      const code = await readPhoto(file);
      if (code) onCode(code);
      else setPhotoError(true);
    } catch {
      setPhotoError(true);
    }
  }

  return (
    <>
      <div className="flex flex-wrap items-center gap-4">
        <button type="button" className="btn-secondary" onClick={() => void camera.toggle()} aria-pressed={camera.on}>
          {camera.on ? t('admin.desk.camera.stop') : t('admin.desk.camera.start')}
        </button>
        <label htmlFor={ids.photo} className="text-sm">
          <span className="block font-semibold">{t('admin.desk.photo.label')}</span>
          <input
            id={ids.photo}
            type="file"
            accept="image/*"
            capture="environment"
            onChange={(e) => {
              void onPhoto(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      <video
        ref={videoRef}
        aria-label={t('admin.desk.camera.video')}
        className={camera.on ? 'w-full max-w-md rounded-md bg-black' : 'hidden'}
        muted
        playsInline
      />
      {camera.error && (
        <p role="alert" className="text-red-700">
          {camera.error}
        </p>
      )}
      {photoError && (
        <p role="alert" className="text-red-700">
          {t('admin.desk.photo.none')}
        </p>
      )}
    </>
  );
}

/** The camera's scanning (loaded at the first start): on or off, why it could not start; stopped on unmount. */
function useCamera(t: Words, onCode: (code: string) => void) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const scan = useRef<CameraScan | null>(null);
  const [on, setOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => scan.current?.stop(), []);

  async function toggle() {
    setError(null);
    if (scan.current) {
      scan.current.stop();
      scan.current = null;
      setOn(false);
      return;
    }
    if (!navigator.mediaDevices?.getUserMedia) {
      setError(t('admin.desk.camera.unsupported'));
      return;
    }
    setOn(true);
    try {
      const { startCamera } = await import('./camera');
      scan.current = await startCamera(videoRef.current!, onCode);
    } catch (e) {
      setOn(false);
      const name = (e as { name?: string }).name;
      setError(
        t(
          name === 'NotAllowedError'
            ? 'admin.desk.camera.denied'
            : name === 'NotFoundError' || name === 'OverconstrainedError'
              ? 'admin.desk.camera.none'
              : 'admin.desk.camera.failed',
        ),
      );
    }
  }

  return { videoRef, on, error, toggle };
}
