import { useId, useRef, useState } from 'react';
import { LazyConfirmDialog } from '@components/ui/LazyConfirmDialog';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { refusalText } from '../action-failure';

export type BatchActionsProps = {
  locale: string;
  base: string;
  messages: Messages;
  batchId: string;
  /** The unused links, one per line (e-mail, English link, Chinese link; tab-separated). */
  text: string;
  unused: number;
};

/**
 * A batch's links to share: the unused ones as text to copy (tab-separated, so they paste into a
 * spreadsheet's columns), a copy button, and revoking every unused link of the batch at once.
 */
export default function BatchActions(props: BatchActionsProps) {
  const t = createT(props.messages);
  const id = useId();
  const [copied, setCopied] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(t('admin.links.batch.copied'));
    } catch {
      // No clipboard (an insecure origin, a denied permission): select the text for Ctrl+C.
      area.current?.select();
      setCopied(t('admin.links.batch.copyFailed'));
    }
  }

  async function revokeUnused() {
    void preloadAlert();
    setBusy(true);
    try {
      await browserApi(props.locale, `${props.base}/`).admin.batches.revokeUnused(props.batchId);
      location.reload();
    } catch (error) {
      setBusy(false);
      setConfirming(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      showAlert(t('admin.links.revokeFailed', { message: refusalText(props.messages, error) }), {
        returnFocus: opener.current,
      });
    }
  }

  return (
    <div className="space-y-3">
      {props.text ? (
        <>
          <label htmlFor={`${id}-links`} className="block text-sm font-semibold">
            {t('admin.links.batch.copyLabel')}
          </label>
          <p id={`${id}-hint`} className="text-sm text-neutral-700">
            {t('admin.links.batch.copyHint')}
          </p>
          <textarea
            ref={area}
            id={`${id}-links`}
            readOnly
            rows={Math.min(12, props.text.split('\n').length + 1)}
            value={props.text}
            aria-describedby={`${id}-hint`}
            className="w-full rounded-md border border-neutral-500 bg-neutral-50 px-3 py-2 font-mono text-xs"
          />
          <div className="flex flex-wrap items-center gap-3">
            <button type="button" className="btn-primary" onClick={() => void copy()}>
              {t('admin.links.batch.copyButton')}
            </button>
            <span role="status" className="text-sm">
              {copied}
            </span>
          </div>
        </>
      ) : (
        <p>{t('admin.links.batch.noneToCopy')}</p>
      )}
      {props.unused > 0 && (
        <button
          type="button"
          className="btn-secondary"
          onClick={(e) => {
            opener.current = e.currentTarget;
            setConfirming(true);
            void loadDialogs();
          }}
        >
          {t('admin.links.batch.revokeUnused')}
        </button>
      )}
      <LazyConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t('admin.links.batch.revokeUnusedTitle')}
        description={t('admin.links.batch.revokeUnusedBody', { count: props.unused })}
        confirmLabel={t('admin.links.batch.revokeUnused')}
        cancelLabel={t('admin.links.back')}
        onConfirm={() => void revokeUnused()}
        busy={busy}
      />
      {alertElement}
    </div>
  );
}
