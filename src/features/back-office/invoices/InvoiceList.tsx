import { useState } from 'react';
import type { AdminInvoice, InvoiceSettings } from '@domain/contract/invoices';
import { formatDateTime } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { apiHref } from '@lib/api';
import { Section } from '@components/ui/Section';

export type InvoiceListProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  rows: AdminInvoice[];
  settings: InvoiceSettings | null;
  /** Today in Taipei (YYYY-MM-DD): the export's default day. */
  today: string;
};

/** The list's columns: message key, and whether the column is numeric (right-aligned). */
const HEADERS: [string, boolean][] = [
  ['admin.invoices.col.order', false],
  ['invoice.number', false],
  ['invoice.status', false],
  ['admin.invoices.col.buyer', false],
  ['invoice.carrier', false],
  ['invoice.total', true],
  ['invoice.issuedAt', false],
  ['admin.invoices.col.actions', false],
];

const twd = (n: number) => `NT$${n.toLocaleString('en-US')}`;

/**
 * The e-invoices of the back office (issue 22, right money): the list (filtered by the page's
 * query), a retry for the failed ones, a day's CSV for the accountant, and the edition's settings.
 */
export default function InvoiceList(props: InvoiceListProps) {
  const t = createT(props.messages);
  const api = () => browserApi(props.locale, `${props.base}/`);
  const [retried, setRetried] = useState<Record<string, string>>({});
  const [day, setDay] = useState(props.today);
  const [settings, setSettings] = useState(props.settings);
  const [saved, setSaved] = useState<string | null>(null);

  const retry = async (row: AdminInvoice) => {
    try {
      await api().admin.invoices.retry(row.id);
      setRetried((r) => ({ ...r, [row.id]: t('admin.invoices.retried') }));
    } catch {
      setRetried((r) => ({ ...r, [row.id]: t('admin.invoices.retryFailed') }));
    }
  };
  const save = async () => {
    if (!settings) return;
    try {
      const answer = await api().admin.invoices.saveSettings({
        enabled: settings.enabled,
        itemNames: settings.itemNames,
      });
      setSettings(answer.data);
      setSaved(t('admin.invoices.settings.saved'));
    } catch {
      setSaved(t('admin.invoices.settings.failed'));
    }
  };
  const setName = (eventType: string, lang: 'en' | 'zh', value: string) =>
    setSettings(
      (s) =>
        s && { ...s, itemNames: s.itemNames.map((n) => (n.eventType === eventType ? { ...n, [lang]: value } : n)) },
    );

  return (
    <div className="space-y-8">
      <Section
        id="invoice-list-heading"
        heading={t('admin.invoices.count', { count: props.rows.length })}
        className="space-y-3"
        large
      >
        {props.rows.length === 0 ? (
          <p>{t('admin.invoices.none')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('admin.invoices.title')}</caption>
              <thead>
                <tr className="border-b">
                  {HEADERS.map(([key, numeric]) => (
                    <th key={key} scope="col" className={numeric ? 'p-2 text-right' : 'p-2'}>
                      {t(key)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {props.rows.map((row) => (
                  <tr key={row.id} className="border-b align-top">
                    <td className="p-2">
                      <span className="block font-mono">{row.orderNo}</span>
                      <span className="block text-neutral-700">{row.eventName}</span>
                    </td>
                    <td className="p-2 font-mono">
                      {row.number ?? '—'}
                      {row.randomCode && <span className="block text-neutral-700">{row.randomCode}</span>}
                    </td>
                    <td className="p-2">
                      {t(`invoice.status.${row.status}`)}
                      {row.lastError && <span className="block text-red-800">{row.lastError}</span>}
                      {row.actions.map((a, i) => (
                        <span key={i} className="block text-neutral-700">
                          {a.kind === 'void'
                            ? t('invoice.voided', { reason: a.reason })
                            : t('invoice.allowanceLine', { amount: twd(a.amountTwd), reason: a.reason })}
                          {a.status !== 'done' && ` ${t('invoice.inProgress')}`}
                        </span>
                      ))}
                    </td>
                    <td className="p-2">
                      <span className="block">{row.buyerName}</span>
                      {row.buyerUbn && <span className="block font-mono">{row.buyerUbn}</span>}
                      <span className="block text-neutral-700">{row.buyerEmail}</span>
                    </td>
                    <td className="p-2">
                      {t(`invoice.carrier.${row.carrierType}`)}
                      {(row.carrierNumber || row.loveCode) && (
                        <span className="block font-mono">{row.carrierNumber ?? row.loveCode}</span>
                      )}
                    </td>
                    <td className="p-2 text-right whitespace-nowrap">{twd(row.amountTwd)}</td>
                    <td className="p-2 whitespace-nowrap">{row.issuedAt ? formatDateTime(row.issuedAt) : '—'}</td>
                    <td className="p-2">
                      {(row.status === 'failed' || row.actions.some((a) => a.status === 'failed')) &&
                        (retried[row.id] ? (
                          <span role="status">{retried[row.id]}</span>
                        ) : (
                          <button
                            type="button"
                            className="btn-secondary"
                            aria-label={t('admin.invoices.retryFor', { orderNo: row.orderNo })}
                            onClick={() => void retry(row)}
                          >
                            {t('admin.invoices.retry')}
                          </button>
                        ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      <Section id="invoice-export-heading" heading={t('admin.invoices.export.heading')} className="card space-y-3">
        <p className="text-neutral-700">{t('admin.invoices.export.about')}</p>
        <div className="flex flex-wrap items-end gap-3">
          <label className="block">
            <span className="block font-medium">{t('admin.invoices.export.day')}</span>
            <input
              type="date"
              className="rounded-md border border-neutral-500 bg-white px-3 py-2"
              value={day}
              onChange={(e) => setDay(e.target.value)}
            />
          </label>
          <a className="btn-secondary" href={apiHref.invoiceExport(day)} download>
            {t('admin.invoices.export.download')}
          </a>
        </div>
      </Section>

      {settings && (
        <Section
          id="invoice-settings-heading"
          heading={t('admin.invoices.settings.heading')}
          className="card space-y-3"
        >
          <p className="text-neutral-700">
            {settings.sandbox ? t('admin.invoices.settings.sandbox') : t('admin.invoices.settings.ezpay')}
          </p>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={settings.enabled}
              onChange={(e) => setSettings({ ...settings, enabled: e.target.checked })}
            />
            <span>{t('admin.invoices.settings.enabled')}</span>
          </label>
          <table className="text-left text-sm">
            <caption className="text-left font-medium">{t('admin.invoices.settings.itemNames')}</caption>
            <thead>
              <tr>
                <th scope="col" className="p-1">
                  {t('admin.invoices.settings.eventType')}
                </th>
                <th scope="col" className="p-1">
                  English
                </th>
                <th scope="col" className="p-1">
                  中文
                </th>
              </tr>
            </thead>
            <tbody>
              {settings.itemNames.map((n) => (
                <tr key={n.eventType}>
                  <th scope="row" className="p-1 font-normal">
                    {t(`eventInfo.types.${n.eventType}`)}
                  </th>
                  <td className="p-1">
                    <input
                      className="rounded-md border border-neutral-500 bg-white px-3 py-2"
                      maxLength={30}
                      aria-label={`${t(`eventInfo.types.${n.eventType}`)} (English)`}
                      value={n.en}
                      onChange={(e) => setName(n.eventType, 'en', e.target.value)}
                    />
                  </td>
                  <td className="p-1">
                    <input
                      className="rounded-md border border-neutral-500 bg-white px-3 py-2"
                      maxLength={30}
                      lang="zh-TW"
                      aria-label={`${t(`eventInfo.types.${n.eventType}`)}（中文）`}
                      value={n.zh}
                      onChange={(e) => setName(n.eventType, 'zh', e.target.value)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="btn-primary" onClick={() => void save()}>
            {t('admin.invoices.settings.save')}
          </button>
          {saved && <p role="status">{saved}</p>}
        </Section>
      )}
    </div>
  );
}
