import { useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useAlert } from '@components/ui/use-alert';
import {
  AMOUNT_MODES,
  DEFAULT_CREDIT_VALUES,
  ENCODING_CHOICES,
  StatementMapping,
  type AmountMode,
  type EncodingChoice,
  type SingleColumnKey,
} from '@domain/bank-statement';
import { snakeize } from '@domain/case';
import { check } from '@domain/validation';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import type { StatementPreview } from '../reconciliation';
import { FieldLabel } from '@components/ui/FieldParts';

export type StatementImportProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  /** The import page's path, without the import's id (`/en/admin/transfers/imports/`). */
  importBase: string;
};

type Mapping = StatementMapping;
type ColumnKey = SingleColumnKey;

/**
 * The bank statement import (issue 11, decision 026): choose the CSV export and its encoding
 * (detected by default), read it, check the columns (preselected as at the last import of the
 * same format, else guessed from the column names), import. The server matches the lines and
 * the import's page shows them; nothing is paid before the organiser confirms there.
 */
export default function StatementImport(props: StatementImportProps) {
  const t = createT(props.messages);
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [encoding, setEncoding] = useState<EncodingChoice>('auto');
  const [preview, setPreview] = useState<StatementPreview | null>(null);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [fileError, setFileError] = useState(false);
  const [mappingError, setMappingError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const previewRef = useRef<HTMLHeadingElement>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));
  const api = () => browserApi(props.locale, `${props.base}/`);

  const fail = (error: unknown) => {
    setBusy(false);
    if (!(error instanceof ApiError) || error.status === 401) return;
    showAlert(apiMessage(props.messages, error));
  };

  async function read() {
    if (!file) {
      setFileError(true);
      document.getElementById(`${id}-file`)?.focus();
      return;
    }
    void preloadAlert();
    setBusy(true);
    const form = new FormData();
    form.set('file', file);
    form.set('encoding', encoding);
    try {
      const body = await api().admin.bankImports.preview(form);
      flushSync(() => {
        setPreview(body.data);
        setMapping({ creditValues: DEFAULT_CREDIT_VALUES, ...body.data.mapping });
        setMappingError(null);
        setBusy(false);
      });
      previewRef.current?.focus();
    } catch (error) {
      fail(error);
    }
  }

  async function importFile() {
    if (!file || !mapping || !preview) return;
    const valid = check(mapping, StatementMapping);
    if (!valid.ok) {
      setMappingError(t('admin.imports.mappingInvalid'));
      document.getElementById(`${id}-mapping-error`)?.focus();
      return;
    }
    void preloadAlert();
    setBusy(true);
    const form = new FormData();
    form.set('file', file);
    // The encoding the preview was read with, so the import reads exactly what was checked.
    form.set('encoding', preview.encoding === 'utf-16le' ? 'auto' : preview.encoding);
    form.set('mapping', JSON.stringify(snakeize(valid.value)));
    try {
      const body = await api().admin.bankImports.create(form);
      location.assign(`${props.importBase}${body.data.id}`);
    } catch (error) {
      fail(error);
    }
  }

  const set = <K extends keyof Mapping>(key: K, value: Mapping[K]) =>
    setMapping((m) => (m ? { ...m, [key]: value } : m));
  const header = preview && mapping && mapping.headerRow > 0 ? (preview.rows[mapping.headerRow - 1] ?? []) : [];
  const columns = preview ? Array.from({ length: preview.columnCount }, (_, i) => i) : [];
  const columnLabel = (i: number) =>
    header[i]?.trim()
      ? t('admin.imports.columnNamed', { n: i + 1, name: header[i].trim() })
      : t('admin.imports.column', { n: i + 1 });

  const columnSelect = (key: ColumnKey, label: string, optional: boolean) => {
    const value = mapping?.[key];
    return (
      <div className="flex flex-col gap-1">
        <FieldLabel id={`${id}-${key}`} label={label} />
        <select
          id={`${id}-${key}`}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => set(key, e.target.value === '' ? null : Number(e.target.value))}
          className="rounded-md border border-neutral-500 bg-white px-3 py-2"
        >
          {optional && <option value="">{t('admin.imports.none')}</option>}
          {columns.map((i) => (
            <option key={i} value={i}>
              {columnLabel(i)}
            </option>
          ))}
        </select>
      </div>
    );
  };

  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void read();
        }}
      >
        <div className="flex flex-col gap-1">
          <FieldLabel id={`${id}-file`} label={t('admin.imports.file')} />
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            aria-describedby={`${id}-file-hint${fileError ? ` ${id}-file-error` : ''}`}
            aria-invalid={fileError || undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFileError(false);
              setPreview(null);
              setMapping(null);
            }}
            className="rounded-md border border-neutral-500 bg-white px-3 py-2 text-sm"
          />
          <span id={`${id}-file-hint`} className="text-xs text-neutral-600">
            {t('admin.imports.fileHint')}
          </span>
          {fileError && (
            <span id={`${id}-file-error`} className="text-xs text-red-700">
              {t('admin.imports.chooseFile')}
            </span>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <FieldLabel id={`${id}-encoding`} label={t('admin.imports.encoding')} />
          <select
            id={`${id}-encoding`}
            value={encoding}
            onChange={(e) => setEncoding(e.target.value as EncodingChoice)}
            className="rounded-md border border-neutral-500 bg-white px-3 py-2"
          >
            {ENCODING_CHOICES.map((c) => (
              <option key={c} value={c}>
                {t(`admin.imports.encoding.${c}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary" disabled={busy}>
          {t('admin.imports.read')}
        </button>
      </form>

      {preview && mapping && (
        <section aria-labelledby={`${id}-preview`} className="space-y-4">
          <h3 id={`${id}-preview`} ref={previewRef} tabIndex={-1} className="font-semibold">
            {t('admin.imports.readAs', {
              encoding: t(`admin.imports.encoding.${preview.encoding}`),
              rows: preview.rowCount,
              columns: preview.columnCount,
            })}
          </h3>
          {preview.replaced > 0 && (
            <p role="alert" className="rounded-md border border-red-600 bg-red-50 px-3 py-2 text-red-900">
              {t('admin.imports.replaced', { count: preview.replaced })}
            </p>
          )}
          <p
            className={`rounded-md border px-3 py-2 ${preview.remembered ? 'border-green-600 bg-green-50 text-green-900' : 'border-amber-500 bg-amber-50 text-amber-900'}`}
          >
            {t(preview.remembered ? 'admin.imports.remembered' : 'admin.imports.guessed')}
          </p>
          <div className="overflow-x-auto rounded-md border border-neutral-300 bg-white">
            <table className="w-full text-left text-xs">
              <caption className="px-3 py-2 text-left text-sm font-semibold">{t('admin.imports.preview')}</caption>
              <thead className="bg-neutral-100">
                <tr>
                  <th scope="col" className="px-2 py-1">
                    {t('admin.imports.line')}
                  </th>
                  {columns.map((i) => (
                    <th key={i} scope="col" className="px-2 py-1 whitespace-nowrap">
                      {t('admin.imports.column', { n: i + 1 })}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row, r) => (
                  <tr
                    key={r}
                    className={`border-t border-neutral-200 ${r + 1 === mapping.headerRow ? 'bg-neutral-100 font-semibold' : ''}`}
                  >
                    <th scope="row" className="px-2 py-1 font-normal text-neutral-600">
                      {r + 1}
                    </th>
                    {columns.map((i) => (
                      <td key={i} className="px-2 py-1 whitespace-nowrap">
                        {row[i] ?? ''}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <form
            className="card space-y-4"
            aria-labelledby={`${id}-mapping`}
            onSubmit={(e) => {
              e.preventDefault();
              void importFile();
            }}
          >
            <h3 id={`${id}-mapping`} className="font-semibold">
              {t('admin.imports.mapping')}
            </h3>
            <div className="grid gap-4 md:grid-cols-3">
              <div className="flex flex-col gap-1">
                <FieldLabel id={`${id}-header`} label={t('admin.imports.headerRow')} />
                <input
                  id={`${id}-header`}
                  type="number"
                  min={0}
                  max={Math.min(50, preview.rowCount)}
                  value={mapping.headerRow}
                  aria-describedby={`${id}-header-hint`}
                  onChange={(e) => set('headerRow', Math.max(0, Math.min(50, Number(e.target.value) || 0)))}
                  className="rounded-md border border-neutral-500 bg-white px-3 py-2"
                />
                <span id={`${id}-header-hint`} className="text-xs text-neutral-600">
                  {t('admin.imports.headerRowHint')}
                </span>
              </div>
              {columnSelect('dateColumn', t('admin.imports.dateColumn'), false)}
              {columnSelect('accountColumn', t('admin.imports.accountColumn'), true)}
            </div>
            <fieldset className="space-y-2">
              <legend className="text-sm font-semibold">{t('admin.imports.amountMode')}</legend>
              {AMOUNT_MODES.map((mode: AmountMode) => (
                <label key={mode} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name={`${id}-mode`}
                    value={mode}
                    checked={mapping.amountMode === mode}
                    onChange={() =>
                      // The columns the layout needs, from those already chosen.
                      setMapping(
                        (m) =>
                          m && {
                            ...m,
                            amountMode: mode,
                            amountColumn: m.amountColumn ?? m.creditColumn ?? Math.min(1, columns.length - 1),
                            creditColumn: m.creditColumn ?? m.amountColumn ?? 0,
                            debitColumn: m.debitColumn ?? m.amountColumn ?? 0,
                            directionColumn: m.directionColumn ?? 0,
                            creditValues: m.creditValues?.trim() ? m.creditValues : DEFAULT_CREDIT_VALUES,
                          },
                      )
                    }
                  />
                  {t(`admin.imports.amountMode.${mode}`)}
                </label>
              ))}
            </fieldset>
            <div className="grid gap-4 md:grid-cols-3">
              {mapping.amountMode === 'split' ? (
                <>
                  {columnSelect('creditColumn', t('admin.imports.creditColumn'), false)}
                  {columnSelect('debitColumn', t('admin.imports.debitColumn'), false)}
                </>
              ) : (
                columnSelect('amountColumn', t('admin.imports.amountColumn'), false)
              )}
              {mapping.amountMode === 'indicator' && (
                <>
                  {columnSelect('directionColumn', t('admin.imports.directionColumn'), false)}
                  <div className="flex flex-col gap-1">
                    <FieldLabel id={`${id}-credits`} label={t('admin.imports.creditValues')} />
                    <input
                      id={`${id}-credits`}
                      type="text"
                      value={mapping.creditValues ?? ''}
                      maxLength={200}
                      aria-describedby={`${id}-credits-hint`}
                      onChange={(e) => set('creditValues', e.target.value)}
                      className="rounded-md border border-neutral-500 bg-white px-3 py-2"
                    />
                    <span id={`${id}-credits-hint`} className="text-xs text-neutral-600">
                      {t('admin.imports.creditValuesHint')}
                    </span>
                  </div>
                </>
              )}
            </div>
            <div className="grid gap-4 md:grid-cols-3">
              {columnSelect('currencyColumn', t('admin.imports.currencyColumn'), true)}
              <div className="flex flex-col gap-1">
                <FieldLabel id={`${id}-default-currency`} label={t('admin.imports.defaultCurrency')} />
                <select
                  id={`${id}-default-currency`}
                  value={mapping.defaultCurrency}
                  onChange={(e) => set('defaultCurrency', e.target.value === 'USD' ? 'USD' : 'TWD')}
                  className="rounded-md border border-neutral-500 bg-white px-3 py-2"
                >
                  <option value="TWD">TWD</option>
                  <option value="USD">USD</option>
                </select>
              </div>
            </div>
            <fieldset>
              <legend className="text-sm font-semibold">{t('admin.imports.memoColumns')}</legend>
              <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
                {columns.map((i) => {
                  const on = mapping.memoColumns.includes(i);
                  return (
                    <label key={i} className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={!on && mapping.memoColumns.length >= 5}
                        onChange={(e) =>
                          set(
                            'memoColumns',
                            e.target.checked
                              ? [...mapping.memoColumns, i].sort((a, b) => a - b)
                              : mapping.memoColumns.filter((c) => c !== i),
                          )
                        }
                      />
                      {columnLabel(i)}
                    </label>
                  );
                })}
              </div>
            </fieldset>
            {mappingError && (
              <p id={`${id}-mapping-error`} tabIndex={-1} role="alert" className="font-semibold text-red-700">
                {mappingError}
              </p>
            )}
            <button type="submit" className="btn-primary" disabled={busy}>
              {t('admin.imports.import')}
            </button>
          </form>
        </section>
      )}
      {alertElement}
    </div>
  );
}
