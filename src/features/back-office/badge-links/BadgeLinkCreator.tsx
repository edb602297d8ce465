import { useId, useMemo, useState, type SyntheticEvent } from 'react';
import { TextField } from '@components/ui/TextField';
import { BADGE_LINK_LIMITS, batchExpiryIssue, parseEmailList } from '@domain/badge-links';
import type { BadgeIdentity } from '@domain/badges';
import { fromTaipeiInput } from '@domain/taipei-time';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { refusalText } from '../action-failure';
import { FieldLabel } from '@components/ui/FieldParts';
import { FormFailure } from '../form-parts';

export type BadgeLinkCreatorProps = {
  locale: string;
  base: string;
  messages: Messages;
  identities: { value: BadgeIdentity; label: string }[];
  /** The expiry the form starts with (`datetime-local`, Taipei time). */
  defaultExpires: string;
  /** Where a batch's page is (`/en/admin/badge-links/`): the new batch's id goes after it. */
  batchPathPrefix: string;
};

type Field = 'identity' | 'count' | 'emails' | 'expires';

/**
 * Creates a batch of one-time free-badge links (issue 11): a number of links, or one per address
 * of a pasted list (read as it is typed: how many addresses, repeats left out, what is not an
 * address), with an expiry in Taipei time. The same rules as the API (domain badge-links); on
 * success the batch's page opens with its links to copy.
 */
export default function BadgeLinkCreator(props: BadgeLinkCreatorProps) {
  const t = createT(props.messages);
  const id = useId();
  const [identity, setIdentity] = useState<BadgeIdentity | ''>('');
  const [mode, setMode] = useState<'count' | 'emails'>('emails');
  const [count, setCount] = useState('10');
  const [emails, setEmails] = useState('');
  const [expires, setExpires] = useState(props.defaultExpires);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const list = useMemo(() => parseEmailList(emails), [emails]);
  const max = BADGE_LINK_LIMITS.perBatch;
  const plural = (key: string, n: number) => t(`${key}_${n === 1 ? 'one' : 'other'}`, { count: n });

  function check(): Partial<Record<Field, string>> {
    const out: Partial<Record<Field, string>> = {};
    if (!identity) out.identity = t('admin.events.issue.required');
    if (mode === 'count') {
      const n = Number(count);
      if (!/^\d+$/.test(count.trim()) || n < 1 || n > max) out.count = t('admin.links.countInvalid', { max });
    } else if (list.invalid.length) out.emails = t('admin.links.fixInvalid');
    else if (list.emails.length === 0) out.emails = t('admin.links.emailsRequired');
    else if (list.emails.length > max) out.emails = t('admin.links.tooMany', { max });
    const at = fromTaipeiInput(expires);
    if (!at || batchExpiryIssue(at, new Date())) out.expires = t('admin.links.expiresInvalid');
    return out;
  }

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure('');
    const found = check();
    setErrors(found);
    const first = (['identity', 'count', 'emails', 'expires'] as Field[]).find((f) => found[f]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await browserApi(props.locale, `${props.base}/`).admin.badgeLinks.create({
        identity: identity as BadgeIdentity, // checked above
        ...(mode === 'count' ? { count: Number(count) } : { emails: list.emails }),
        expiresAt: fromTaipeiInput(expires)!.toISOString(),
        note: note.trim(),
      });
      // The route answers `{ data: { batch, links } }` (the contract types the batch at the top).
      const { data } = answer as unknown as { data: { batch: { id: string } } };
      location.assign(`${props.batchPathPrefix}${data.batch.id}?created=1`);
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      setFailure(t('admin.links.failed', { message: refusalText(props.messages, error) }));
    }
  }

  const summary = [
    plural('admin.links.emailsCount', list.emails.length),
    list.duplicates ? plural('admin.links.duplicates', list.duplicates) : '',
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4 md:grid-cols-2">
      <div className="flex flex-col gap-1">
        <FieldLabel id={`${id}-identity`} label={t('admin.links.identity')} />
        <select
          id={`${id}-identity`}
          value={identity}
          onChange={(e) => setIdentity(e.target.value as BadgeIdentity)}
          aria-invalid={errors.identity ? true : undefined}
          aria-describedby={errors.identity ? `${id}-identity-error` : undefined}
          className={`rounded-md border bg-white px-3 py-2 ${errors.identity ? 'border-red-600' : 'border-neutral-500'}`}
        >
          <option value="">{t('market.form.choose')}</option>
          {props.identities.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {errors.identity && (
          <span id={`${id}-identity-error`} className="text-xs text-red-700">
            {errors.identity}
          </span>
        )}
      </div>
      <TextField
        id={`${id}-expires`}
        type="datetime-local"
        label={t('admin.links.expires')}
        value={expires}
        onChange={setExpires}
        error={errors.expires}
      />
      <fieldset className="md:col-span-2">
        <legend className="mb-2 text-sm font-semibold">{t('admin.links.mode')}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(['emails', 'count'] as const).map((m) => (
            <label key={m} className="flex items-center gap-2">
              <input
                type="radio"
                name={`${id}-mode`}
                value={m}
                checked={mode === m}
                onChange={() => {
                  setMode(m);
                  setErrors({});
                }}
              />
              {t(`admin.links.mode.${m}`)}
            </label>
          ))}
        </div>
      </fieldset>
      {mode === 'count' ? (
        <TextField
          id={`${id}-count`}
          label={t('admin.links.count')}
          value={count}
          onChange={setCount}
          inputMode="numeric"
          hint={t('admin.links.countHint', { max })}
          error={errors.count}
        />
      ) : (
        <div className="flex flex-col gap-1 md:col-span-2">
          <FieldLabel id={`${id}-emails`} label={t('admin.links.emails')} />
          <textarea
            id={`${id}-emails`}
            rows={6}
            value={emails}
            onChange={(e) => setEmails(e.target.value)}
            aria-invalid={errors.emails ? true : undefined}
            aria-describedby={`${id}-emails-hint ${id}-emails-summary${errors.emails ? ` ${id}-emails-error` : ''}`}
            className={`rounded-md border bg-white px-3 py-2 font-mono text-sm ${errors.emails ? 'border-red-600' : 'border-neutral-500'}`}
          />
          <span id={`${id}-emails-hint`} className="text-xs text-neutral-600">
            {t('admin.links.emailsHint')}
          </span>
          <span id={`${id}-emails-summary`} className="text-sm" role="status">
            {summary}
          </span>
          {list.invalid.length > 0 && (
            <span className="text-sm text-red-700">
              {t('admin.links.invalid', { list: list.invalid.slice(0, 10).join(', ') })}
            </span>
          )}
          {errors.emails && (
            <span id={`${id}-emails-error`} className="text-xs text-red-700">
              {errors.emails}
            </span>
          )}
        </div>
      )}
      <div className="md:col-span-2">
        <TextField id={`${id}-note`} label={t('admin.links.note')} value={note} onChange={setNote} max={200} />
      </div>
      <FormFailure text={failure} className="md:col-span-2" />
      <div className="md:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy
            ? t('admin.links.creating')
            : mode === 'emails'
              ? t('admin.links.submitEmails')
              : t('admin.links.submitCount')}
        </button>
      </div>
    </form>
  );
}
