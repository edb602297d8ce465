import { useId, useState } from 'react';
import { ConfirmDialog } from '@components/ui/ConfirmDialog';
import { TextField } from '@components/ui/TextField';
import { EVENT_CATALOGUE_LIMITS, slugIssue, STATUS_CHANGES, type EventStatus } from '@domain/event-catalogue';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { refusalText } from '../action-failure';
import { FormFailure } from '../form-parts';

export type EventStatusActionsProps = {
  locale: string;
  base: string;
  messages: Messages;
  slug: string;
  status: EventStatus;
};

type Action = 'publish' | 'unpublish' | 'archive' | 'duplicate';

/**
 * Publish, back to draft, archive and duplicate (issue 21), each after a confirmation that says
 * what it does; the duplicate asks for the copy's slug. The page reloads with what was done.
 */
export default function EventStatusActions(props: EventStatusActionsProps) {
  const t = createT(props.messages);
  const id = useId();
  const [open, setOpen] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const [copySlug, setCopySlug] = useState(`${props.slug}-copy`.slice(0, EVENT_CATALOGUE_LIMITS.slug.max));
  const [slugError, setSlugError] = useState('');
  const offered: Action[] = [
    ...(['publish', 'unpublish', 'archive'] as const).filter((a) =>
      (STATUS_CHANGES[a].from as readonly EventStatus[]).includes(props.status),
    ),
    'duplicate',
  ];
  const adminPath = (slug: string) => `${props.base}/admin/events/${encodeURIComponent(slug)}`;

  async function confirm(action: Action) {
    setFailure('');
    setSlugError('');
    const api = browserApi(props.locale, `${props.base}/`);
    try {
      if (action === 'duplicate') {
        const slug = copySlug.trim();
        const bad = slugIssue(slug);
        if (bad) return setSlugError(t(`admin.events.issue.${bad.code}`));
        setBusy(true);
        await api.admin.events.duplicate(props.slug, { slug });
        location.assign(`${adminPath(slug)}?done=duplicated`);
        return;
      }
      setBusy(true);
      await api.admin.events.changeStatus(props.slug, action);
      location.assign(`${adminPath(props.slug)}?done=${STATUS_CHANGES[action].action}`);
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      const issue = (error.data as { issues?: { path: string; code?: string }[] }).issues?.find((i) => i.code);
      if (action === 'duplicate' && issue) return setSlugError(t(`admin.events.issue.${issue.code}`));
      setOpen(null);
      setFailure(refusalText(props.messages, error));
    }
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-3">
        {offered.map((a) => (
          <button
            key={a}
            type="button"
            className={a === 'publish' ? 'btn-primary' : 'btn-secondary'}
            onClick={() => {
              setFailure('');
              setOpen(a);
            }}
          >
            {t(`admin.events.${a}`)}
          </button>
        ))}
      </div>
      <FormFailure text={failure} />
      {open && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && !busy && setOpen(null)}
          title={t(`admin.events.confirm.${open}.title`)}
          description={t(`admin.events.confirm.${open}.body`)}
          confirmLabel={t(`admin.events.${open}`)}
          cancelLabel={t('dialog.cancel')}
          onConfirm={() => void confirm(open)}
          busy={busy}
        >
          {open === 'duplicate' && (
            <div className="mt-4">
              <TextField
                id={`${id}-copy-slug`}
                label={t('admin.events.duplicateSlug')}
                value={copySlug}
                onChange={setCopySlug}
                max={EVENT_CATALOGUE_LIMITS.slug.max}
                hint={t('admin.events.hint.slug')}
                error={slugError}
              />
            </div>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
