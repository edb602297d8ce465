import { useEffect, useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import type { T } from '@i18n/t';
import type { UploadedFile } from '@domain/contract';
import { acceptFor, UPLOAD_PURPOSES, type UploadPurpose } from '@domain/uploads';

export type { UploadedFile };
/** Which rule an upload broke, when known: shown beside the spec's upload-failed message. */
type FailedRule = 'type' | 'size' | 'empty' | 'quota' | 'busy' | null;
type State =
  | { kind: 'idle' }
  | { kind: 'processing'; percent: number }
  | { kind: 'completed' }
  | { kind: 'failed'; rule: FailedRule };

/** Image guidance checked in the browser: a warning, never a refusal (spec §5 photo guidance). */
export type ImageGuide = { minWidth: number; minHeight: number; square: boolean };

const IMAGE_KINDS = new Set(['png', 'jpeg']);

/** The rule an API upload error names (files service codes). */
function ruleOfCode(code: unknown): FailedRule {
  if (code === 'unsupported_file_type') return 'type';
  if (code === 'file_too_large') return 'size';
  if (code === 'empty_file') return 'empty';
  // The daily upload quota, and the rate limit (decision 021).
  if (code === 'upload_quota_exceeded') return 'quota';
  if (code === 'rate_limited') return 'busy';
  return null;
}

/** The rule a file refused in the browser (react-dropzone error codes) broke. */
function ruleOfRejection(rejections: FileRejection[]): FailedRule {
  const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
  if (codes.includes('file-invalid-type')) return 'type';
  if (codes.includes('file-too-large')) return 'size';
  return null;
}

/**
 * Uploads one file for a form field (spec §4 File upload): idle → processing with a percentage →
 * completed or failed (red border and the upload-failed message, plus which rule failed); the
 * user may re-upload after either. An image shows a preview thumbnail and, with `imageGuide`, a
 * warning when it is smaller than the guidance or not square. `value` may come from a restored
 * draft: the field then shows it as completed. Through the API client's `files.upload`, which
 * reports the upload's progress (decision 044).
 */
export function Uploader(props: {
  id: string;
  purpose: UploadPurpose;
  label: string;
  hint?: string;
  value: UploadedFile | null;
  onChange: (file: UploadedFile | null) => void;
  t: T;
  /** A form error of the field (e.g. no photo chosen): marks the field and is read with it. */
  error?: string | undefined;
  imageGuide?: ImageGuide;
  /** Marked as required (*) unless false: the company logo is optional. */
  required?: boolean;
}) {
  const { t } = props;
  const [state, setState] = useState<State>({ kind: 'idle' });
  /** A local preview of the file just chosen (object URL), before the server's copy is shown. */
  const [localPreview, setLocalPreview] = useState<{ uid: string; url: string } | null>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const rule = UPLOAD_PURPOSES[props.purpose];
  const isImage = rule.kinds.every((k) => IMAGE_KINDS.has(k));

  useEffect(
    () => () => {
      if (localPreview) URL.revokeObjectURL(localPreview.url);
    },
    [localPreview],
  );

  function fail(failed: FailedRule) {
    setState({ kind: 'failed', rule: failed });
    setSize(null);
    props.onChange(null);
  }

  function upload(file: File) {
    setState({ kind: 'processing', percent: 0 });
    setSize(null);
    const home = `/${location.pathname.split('/')[1] || 'en'}/`;
    browserApi(document.documentElement.lang || 'en', home)
      .files.upload(file, {
        purpose: props.purpose,
        onProgress: ({ percent }) => setState({ kind: 'processing', percent: Math.min(99, percent) }),
      })
      .then((uploaded) => {
        if (typeof uploaded?.uid !== 'string') {
          fail(null);
          return;
        }
        const shown = { uid: uploaded.uid, name: String(uploaded.name ?? file.name), url: String(uploaded.url ?? '') };
        if (isImage) setLocalPreview({ uid: shown.uid, url: URL.createObjectURL(file) });
        setState({ kind: 'completed' });
        props.onChange(shown);
      })
      .catch((error: unknown) => {
        // A 401 has sent the browser to sign in (the client's 401 rule): nothing to show.
        if (error instanceof ApiError && error.status === 401) return;
        fail(error instanceof ApiError && error.status > 399 ? ruleOfCode(error.code) : null);
      });
  }

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: acceptFor(props.purpose),
    maxFiles: 1,
    maxSize: rule.maxBytes,
    multiple: false,
    noClick: true,
    noKeyboard: true,
    onDropAccepted: (files) => files[0] && upload(files[0]),
    onDropRejected: (rejections) => fail(ruleOfRejection(rejections)),
  });

  // A value from a restored draft shows as uploaded; a failure or an upload in progress wins.
  const shown: State =
    state.kind === 'failed' || state.kind === 'processing'
      ? state
      : props.value
        ? { kind: 'completed' }
        : { kind: 'idle' };
  const value = shown.kind === 'completed' ? props.value : null;
  const preview = value && isImage ? (localPreview?.uid === value.uid ? localPreview.url : value.url) : null;
  const guide = props.imageGuide;
  const warnings =
    value && size && guide
      ? [
          ...(size.width < guide.minWidth || size.height < guide.minHeight
            ? [t('upload.warn.small', { width: size.width, height: size.height, min: guide.minWidth })]
            : []),
          ...(guide.square && size.width !== size.height ? [t('upload.warn.square')] : []),
        ]
      : [];

  const failed = shown.kind === 'failed' || !!props.error;
  const statusId = `${props.id}-status`;
  const errorId = `${props.id}-error`;
  const warningId = `${props.id}-warning`;
  const showError = !!props.error && shown.kind !== 'failed';
  const describedBy = [
    props.hint && `${props.id}-hint`,
    statusId,
    showError && errorId,
    warnings.length > 0 && warningId,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="flex flex-col gap-1">
      <span id={`${props.id}-label`} className="text-sm font-semibold">
        {props.label}
        {props.required !== false && (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </span>
      {props.hint && (
        <p id={`${props.id}-hint`} className="text-xs text-neutral-600">
          {props.hint}
        </p>
      )}
      <div
        {...getRootProps({
          className: `flex flex-col items-center gap-3 rounded-md border-2 border-dashed p-4 text-center ${failed ? 'border-red-600 bg-red-50' : isDragActive ? 'border-orange-500 bg-orange-50' : 'border-neutral-400'}`,
          'data-state': shown.kind,
        })}
      >
        <input
          {...getInputProps({
            // react-dropzone hides the input with an inline style, which the portal's CSP
            // (no 'unsafe-inline' styles) blocks when the island is rendered on the server: the
            // same hiding from the stylesheet instead.
            style: undefined,
            className: 'm-0 block h-0 w-0 max-w-0 overflow-hidden border-0 p-0 opacity-0',
            id: props.id,
            'aria-labelledby': `${props.id}-label`,
            'aria-describedby': describedBy,
            'aria-invalid': failed || undefined,
          })}
        />
        {preview && (
          <img
            src={preview}
            alt={t('upload.preview', { name: value?.name ?? '' })}
            width={96}
            height={96}
            className="h-24 w-24 rounded border border-neutral-300 bg-white object-cover"
            onLoad={(e) => setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
          />
        )}
        <p id={statusId} aria-live="polite" className="text-sm">
          {shown.kind === 'idle' && t('upload.idle')}
          {shown.kind === 'processing' && t('upload.processing', { percent: shown.percent })}
          {value && t('upload.completed', { name: value.name })}
          {shown.kind === 'failed' && (
            <>
              <span className="block font-semibold text-red-700">{t('upload.failed')}</span>
              {shown.rule && (
                <span className="block text-red-700">
                  {t(`upload.rule.${shown.rule}`, { max: Math.round(rule.maxBytes / 1024 / 1024) })}
                </span>
              )}
            </>
          )}
        </p>
        {showError && (
          <p id={errorId} className="text-sm font-semibold text-red-700">
            {props.error}
          </p>
        )}
        {warnings.length > 0 && (
          <p
            id={warningId}
            role="status"
            className="rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-left text-sm text-amber-900"
          >
            {warnings.join(' ')}
          </p>
        )}
        {shown.kind === 'processing' && (
          <progress className="h-2 w-full max-w-xs" max={100} value={shown.percent} aria-label={t('upload.progress')} />
        )}
        <button
          id={`${props.id}-button`}
          type="button"
          className="btn-secondary"
          onClick={open}
          aria-labelledby={`${props.id}-button ${props.id}-label`}
          disabled={shown.kind === 'processing'}
          aria-describedby={describedBy}
          aria-invalid={failed || undefined}
        >
          {shown.kind === 'idle' ? t('upload.choose') : t('upload.reupload')}
        </button>
        <p className="text-xs text-neutral-600">{t(`upload.types.${props.purpose}`)}</p>
      </div>
    </div>
  );
}
