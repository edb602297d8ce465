import { useEffect } from 'react';

export type ToastMessage = { id: number; tone: 'success' | 'error'; text: string; durationMs: number };

/** A toast that announces itself (status / alert live region) and disappears after its duration. */
export function Toast({
  toast,
  onClose,
  closeLabel,
}: {
  toast: ToastMessage | null;
  onClose: () => void;
  closeLabel: string;
}) {
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(onClose, toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast, onClose]);
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4" aria-live="polite">
      {toast && (
        <div
          role={toast.tone === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex max-w-md items-start gap-3 rounded-md px-4 py-3 text-sm font-medium text-white shadow-lg ${toast.tone === 'error' ? 'bg-red-700' : 'bg-green-800'}`}
        >
          <span>{toast.text}</span>
          <button type="button" onClick={onClose} className="ml-auto rounded px-1 underline" aria-label={closeLabel}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}

let nextId = 1;
/** A toast message with a fresh id (so the same text twice restarts the timer). */
export const makeToast = (tone: ToastMessage['tone'], text: string, durationMs: number): ToastMessage => ({
  id: nextId++,
  tone,
  text,
  durationMs,
});
