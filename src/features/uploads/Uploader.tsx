import { useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { $token, handleUnauthorized } from '@lib/auth.store';
import type { T } from '@i18n/t';
import { acceptFor, UPLOAD_PURPOSES, type UploadPurpose } from '@domain/uploads';

export type UploadedFile = { uid: string; name: string; url: string };
type State = { kind: 'idle' } | { kind: 'processing'; percent: number } | { kind: 'completed' } | { kind: 'failed' };

/**
 * Uploads one file for a form field (spec §4 File upload): idle → processing with a percentage →
 * completed or failed (red border and the upload-failed message); the user may re-upload after
 * either. XMLHttpRequest rather than the fetch-based API client, because only it reports upload
 * progress; the request is otherwise the same (Bearer token, same endpoint, same error body).
 */
export function Uploader(props: {
  id: string;
  purpose: UploadPurpose;
  label: string;
  hint?: string;
  value: UploadedFile | null;
  onChange: (file: UploadedFile | null) => void;
  t: T;
  error?: string | undefined;
}) {
  const { t } = props;
  const [state, setState] = useState<State>(props.value ? { kind: 'completed' } : { kind: 'idle' });
  const rule = UPLOAD_PURPOSES[props.purpose];

  function upload(file: File) {
    setState({ kind: 'processing', percent: 0 });
    const body = new FormData();
    body.append('file', file);
    body.append('purpose', props.purpose);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/files/upload');
    const token = $token.get() || /(?:^|; )idc-token=([^;]*)/.exec(document.cookie)?.[1];
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable)
        setState({ kind: 'processing', percent: Math.min(99, Math.round((e.loaded / e.total) * 100)) });
    };
    xhr.onload = () => {
      if (xhr.status === 401) {
        handleUnauthorized(`/${location.pathname.split('/')[1] ?? 'en'}/`);
        return;
      }
      if (xhr.status > 399) {
        setState({ kind: 'failed' });
        props.onChange(null);
        return;
      }
      try {
        const body = JSON.parse(xhr.responseText) as UploadedFile;
        setState({ kind: 'completed' });
        props.onChange({ uid: body.uid, name: body.name, url: body.url });
      } catch {
        setState({ kind: 'failed' });
      }
    };
    xhr.onerror = () => setState({ kind: 'failed' });
    xhr.send(body);
  }

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: acceptFor(props.purpose),
    maxFiles: 1,
    maxSize: rule.maxBytes,
    multiple: false,
    noClick: true,
    noKeyboard: true,
    onDropAccepted: (files) => files[0] && upload(files[0]),
    onDropRejected: () => {
      setState({ kind: 'failed' });
      props.onChange(null);
    },
  });

  const failed = state.kind === 'failed' || !!props.error;
  const statusId = `${props.id}-status`;
  return (
    <div className="flex flex-col gap-1">
      <span id={`${props.id}-label`} className="text-sm font-semibold">
        {props.label} <span className="text-red-700">*</span>
      </span>
      {props.hint && (
        <p id={`${props.id}-hint`} className="text-xs text-neutral-600">
          {props.hint}
        </p>
      )}
      <div
        {...getRootProps({
          className: `flex flex-col items-center gap-3 rounded-md border-2 border-dashed p-4 text-center ${failed ? 'border-red-600 bg-red-50' : isDragActive ? 'border-orange-500 bg-orange-50' : 'border-neutral-400'}`,
          'data-state': state.kind,
        })}
      >
        <input
          {...getInputProps({ id: props.id, 'aria-labelledby': `${props.id}-label`, 'aria-describedby': statusId })}
        />
        <p id={statusId} aria-live="polite" className="text-sm">
          {state.kind === 'idle' && t('upload.idle')}
          {state.kind === 'processing' && t('upload.processing', { percent: state.percent })}
          {state.kind === 'completed' && props.value && t('upload.completed', { name: props.value.name })}
          {state.kind === 'failed' && <span className="font-semibold text-red-700">{t('upload.failed')}</span>}
          {state.kind !== 'failed' && props.error && (
            <span className="block font-semibold text-red-700">{props.error}</span>
          )}
        </p>
        {state.kind === 'processing' && (
          <progress className="h-2 w-full max-w-xs" max={100} value={state.percent} aria-label={t('upload.progress')} />
        )}
        <button type="button" className="btn-secondary" onClick={open} disabled={state.kind === 'processing'}>
          {state.kind === 'idle' ? t('upload.choose') : t('upload.reupload')}
        </button>
        <p className="text-xs text-neutral-600">{t(`upload.types.${props.purpose}`)}</p>
      </div>
    </div>
  );
}
