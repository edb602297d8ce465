import { useRef, useState } from 'react';
import { Table } from '@components/tables/Table';
import { LazyConfirmDialog } from '@components/ui/LazyConfirmDialog';
import { loadDialogs } from '@components/ui/load-dialogs';
import { useAlert } from '@components/ui/use-alert';
import { formatDateTime } from '@domain/format';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { refusalText } from '../action-failure';
import type { AdminLink } from '../admin-ops';

export type BadgeLinkTableProps = {
  locale: string;
  base: string;
  messages: Messages;
  caption: string;
  links: AdminLink[];
  /** The signed-in organiser (shown as who revoked a link this page revoked). */
  organiser: string;
  /** `/en/admin/orders/`: an order number goes after it. */
  orderPathPrefix: string;
  /** `/en/admin/badge-links/`: a batch id goes after it (null: the batch column is left out). */
  batchPathPrefix: string | null;
};

/**
 * The links organisers made (issue 11): what each is now, who used it and when (with their badge
 * order), who revoked it; an unused link can be revoked here (after a confirmation), and its row
 * says so at once. The claim page refuses a revoked link from then on.
 */
export default function BadgeLinkTable(props: BadgeLinkTableProps) {
  const t = createT(props.messages);
  const [links, setLinks] = useState(props.links);
  const [revoking, setRevoking] = useState<AdminLink | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));

  async function revoke(link: AdminLink) {
    void preloadAlert();
    setBusy(true);
    try {
      await browserApi(props.locale, `${props.base}/`).admin.badgeLinks.revoke(link.id);
      const now = new Date().toISOString();
      setLinks((all) =>
        all.map((l) =>
          l.id === link.id ? { ...l, status: 'revoked', revokedAt: now, revokedBy: props.organiser } : l,
        ),
      );
      setRevoking(null);
    } catch (error) {
      setRevoking(null);
      if (!(error instanceof ApiError) || error.status === 401) return;
      showAlert(t('admin.links.revokeFailed', { message: refusalText(props.messages, error) }), {
        returnFocus: opener.current,
      });
    } finally {
      setBusy(false);
    }
  }

  const short = (code: string) => `${code.slice(0, 8)}…`;
  return (
    <>
      <Table
        caption={props.caption}
        columns={[
          t('admin.links.col.link'),
          t('admin.links.col.email'),
          t('admin.links.col.status'),
          t('admin.links.col.expires'),
          t('admin.links.col.by'),
          t('admin.links.col.actions'),
        ]}
      >
        {links.map((l) => (
          <tr key={l.id} className="border-t border-neutral-200 align-top">
            <th scope="row" className="px-3 py-2 font-normal">
              <span className="block">{t(`identity.${l.identity}`)}</span>
              <code className="text-xs text-neutral-700">{short(l.code)}</code>
            </th>
            <td className="px-3 py-2 break-all">{l.email ?? t('admin.links.anyone')}</td>
            <td className="px-3 py-2">
              <strong className="block">{t(`admin.links.status.${l.status}`)}</strong>
              {l.status === 'used' && l.usedBy && (
                <span className="block">
                  {l.usedBy.name ? `${l.usedBy.name} · ${l.usedBy.email}` : l.usedBy.email}{' '}
                  {l.usedAt && t('admin.links.usedOn', { date: formatDateTime(l.usedAt) })}
                </span>
              )}
              {l.status === 'used' && l.orderNo && (
                <a className="link block" href={`${props.orderPathPrefix}${encodeURIComponent(l.orderNo)}`}>
                  {t('admin.links.order', { orderNo: l.orderNo })}
                </a>
              )}
              {l.status === 'revoked' && l.revokedAt && (
                <span className="block text-neutral-700">
                  {t('admin.links.revokedBy', { who: l.revokedBy ?? '', date: formatDateTime(l.revokedAt) })}
                </span>
              )}
            </td>
            <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(l.expiresAt)}</td>
            <td className="px-3 py-2">
              <span className="block">{l.createdBy ?? ''}</span>
              <span className="block text-neutral-700">{formatDateTime(l.createdAt)}</span>
              {props.batchPathPrefix && l.batchId && (
                <a className="link block" href={`${props.batchPathPrefix}${l.batchId}`}>
                  {t('admin.links.viewBatch')}
                </a>
              )}
            </td>
            <td className="px-3 py-2">
              {l.status === 'unused' && (
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={t('admin.links.revokeLabel', { code: short(l.code) })}
                  onClick={(e) => {
                    opener.current = e.currentTarget;
                    setRevoking(l);
                    void loadDialogs();
                  }}
                >
                  {t('admin.links.revoke')}
                </button>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <LazyConfirmDialog
        open={!!revoking}
        onClose={() => setRevoking(null)}
        title={t('admin.links.revokeTitle')}
        description={t('admin.links.revokeBody')}
        confirmLabel={t('admin.links.revoke')}
        cancelLabel={t('admin.links.back')}
        onConfirm={() => {
          if (revoking) void revoke(revoking);
        }}
        busy={busy}
      />
      {alertElement}
    </>
  );
}
