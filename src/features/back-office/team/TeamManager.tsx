import { useId, useRef, useState, type SyntheticEvent } from 'react';
import { ConfirmDialog } from '@components/ui/ConfirmDialog';
import { TextField } from '@components/ui/TextField';
import type { TeamMember } from '@domain/contract/team';
import { formatDateTime } from '@domain/format';
import { ROLES, type Role } from '@domain/roles';
import { isTeamEmail, teamEmail, TEAM_EMAIL_MAX } from '@domain/team';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';
import { refusalText } from '../action-failure';
import { FormFailure } from '../form-parts';
import { Section } from '@components/ui/Section';

export type TeamManagerProps = {
  locale: string;
  base: string;
  messages: Messages;
  members: TeamMember[];
  /** The signed-in admin's e-mail (marked "you"). */
  me: string;
  /** This page, to come back to with what was done (`?done=…`). */
  path: string;
};

type Pending = { kind: 'role'; member: TeamMember; role: Role } | { kind: 'remove'; member: TeamMember };

/**
 * The team page's island (issue 21): the members with their role (a select and "Change role" for
 * invited members; the configured admins are shown, not changed), remove, and the invitation
 * form (e-mail, a role with what it opens). Each change is confirmed in a dialog; the page comes
 * back with what was done, and the API's refusals (the last admin…) are said in the page's words.
 */
export default function TeamManager(props: TeamManagerProps) {
  const t = createT(props.messages);
  const id = useId();
  const [roles, setRoles] = useState<Record<string, Role>>(() =>
    Object.fromEntries(props.members.map((m) => [m.email, m.role])),
  );
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const failureRef = useRef<HTMLParagraphElement>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [errors, setErrors] = useState<{ email?: string; role?: string }>({});
  const [inviteFailure, setInviteFailure] = useState('');
  const roleLabel = (r: Role) => t(`admin.role.${r}`);
  const api = () => browserApi(props.locale, `${props.base}/`);
  const back = (query: Record<string, string>) =>
    location.assign(`${props.path}?${new URLSearchParams(query).toString()}`);

  async function confirm(action: Pending) {
    setBusy(true);
    setFailure('');
    try {
      if (action.kind === 'role') {
        await api().admin.team.changeRole(action.member.email, action.role);
        back({ done: 'roleChanged', email: action.member.email, role: action.role });
      } else {
        await api().admin.team.remove(action.member.email);
        back({ done: 'removed', email: action.member.email });
      }
    } catch (error) {
      setBusy(false);
      setPending(null);
      if (!(error instanceof ApiError) || error.status === 401) return;
      setFailure(refusalText(props.messages, error));
      requestAnimationFrame(() => failureRef.current?.focus());
    }
  }

  async function invite(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    setInviteFailure('');
    const address = teamEmail(email);
    const found = {
      ...(isTeamEmail(address) ? {} : { email: t('admin.team.issue.email') }),
      ...(role ? {} : { role: t('admin.team.issue.role') }),
    };
    setErrors(found);
    if (found.email) return document.getElementById(`${id}-email`)?.focus();
    if (found.role || !role) return document.getElementById(`${id}-role-${ROLES[0]}`)?.focus();
    setBusy(true);
    try {
      await api().admin.team.invite(address, role);
      back({ done: 'invited', email: address, role });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError) || error.status === 401) return;
      const issues = (error.data as { issues?: { path: string }[] }).issues ?? [];
      if (issues.some((i) => i.path === 'email')) return setErrors({ email: t('admin.team.issue.email') });
      if (issues.some((i) => i.path === 'role')) return setErrors({ role: t('admin.team.issue.role') });
      setInviteFailure(refusalText(props.messages, error));
    }
  }

  return (
    <div className="space-y-8">
      <Section id={`${id}-members`} heading={t('admin.team.members')} className="space-y-3">
        {failure && (
          <p ref={failureRef} tabIndex={-1} role="alert" className="font-semibold text-red-700">
            {failure}
          </p>
        )}
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('admin.team.members')}</caption>
            <thead>
              <tr className="border-b border-neutral-300">
                {(['member', 'role', 'invited', 'lastSignIn', 'actions'] as const).map((col) => (
                  <th key={col} scope="col" className="py-2 pr-4">
                    {t(`admin.team.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.members.map((m) => {
                const chosen = roles[m.email] ?? m.role;
                const selectId = `${id}-role-of-${m.email}`;
                return (
                  <tr key={m.email} className="border-b border-neutral-200 align-top">
                    <th scope="row" className="py-2 pr-4 font-normal">
                      <span className="font-semibold break-all">{m.email}</span>
                      {m.email === props.me && <span> {t('admin.team.you')}</span>}
                      {m.name && <span className="block text-neutral-700">{m.name}</span>}
                    </th>
                    <td className="py-2 pr-4">
                      {m.source === 'configuration' ? (
                        <span>{roleLabel(m.role)}</span>
                      ) : (
                        <div className="flex flex-wrap items-center gap-2">
                          <label htmlFor={selectId} className="sr-only">
                            {t('admin.team.roleOf', { email: m.email })}
                          </label>
                          <select
                            id={selectId}
                            value={chosen}
                            onChange={(e) => setRoles({ ...roles, [m.email]: e.target.value as Role })}
                            className="rounded-md border border-neutral-500 bg-white px-2 py-1"
                          >
                            {ROLES.map((r) => (
                              <option key={r} value={r}>
                                {roleLabel(r)}
                              </option>
                            ))}
                          </select>
                          <button
                            type="button"
                            className="btn-secondary whitespace-nowrap"
                            disabled={chosen === m.role}
                            onClick={() => setPending({ kind: 'role', member: m, role: chosen })}
                          >
                            {t('admin.team.changeRole')}
                          </button>
                        </div>
                      )}
                    </td>
                    <td className="py-2 pr-4">
                      {m.source === 'configuration'
                        ? t('admin.team.configured')
                        : m.invitedAt
                          ? t('admin.team.invitedBy', { date: formatDateTime(m.invitedAt), who: m.invitedBy ?? '' })
                          : ''}
                    </td>
                    <td className="py-2 pr-4">
                      {m.lastSignInAt ? formatDateTime(m.lastSignInAt) : t('admin.team.never')}
                    </td>
                    <td className="py-2">
                      {m.source === 'team' && (
                        <button
                          type="button"
                          className="btn-secondary whitespace-nowrap"
                          aria-label={t('admin.team.removeWho', { email: m.email })}
                          onClick={() => setPending({ kind: 'remove', member: m })}
                        >
                          {t('admin.team.remove')}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id={`${id}-invite`} heading={t('admin.team.invite.heading')} className="card max-w-2xl space-y-4">
        <form noValidate onSubmit={(e) => void invite(e)} className="space-y-4">
          <TextField
            id={`${id}-email`}
            label={t('admin.team.invite.email')}
            type="email"
            autoComplete="off"
            value={email}
            onChange={setEmail}
            max={TEAM_EMAIL_MAX}
            error={errors.email}
          />
          <fieldset
            className="space-y-2"
            aria-invalid={errors.role ? true : undefined}
            aria-describedby={errors.role ? `${id}-role-error` : undefined}
          >
            <legend className="text-sm font-semibold">{t('admin.team.invite.role')}</legend>
            {ROLES.map((r) => (
              <div key={r} className="flex items-start gap-2">
                <input
                  type="radio"
                  id={`${id}-role-${r}`}
                  name={`${id}-role`}
                  value={r}
                  checked={role === r}
                  onChange={() => setRole(r)}
                  aria-describedby={`${id}-role-${r}-hint`}
                  className="mt-1"
                />
                <div>
                  <label htmlFor={`${id}-role-${r}`} className="font-semibold">
                    {roleLabel(r)}
                  </label>
                  <span id={`${id}-role-${r}-hint`} className="block text-sm text-neutral-700">
                    {t(`admin.roleHint.${r}`)}
                  </span>
                </div>
              </div>
            ))}
            {errors.role && (
              <p id={`${id}-role-error`} className="text-xs text-red-700">
                {errors.role}
              </p>
            )}
          </fieldset>
          <FormFailure text={inviteFailure} />
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('admin.team.invite.submit')}
          </button>
        </form>
      </Section>

      {pending && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && !busy && setPending(null)}
          title={t(`admin.team.confirm.${pending.kind}.title`, { email: pending.member.email })}
          description={
            pending.kind === 'role'
              ? t('admin.team.confirm.role.body', { from: roleLabel(pending.member.role), to: roleLabel(pending.role) })
              : t('admin.team.confirm.remove.body')
          }
          confirmLabel={t(pending.kind === 'role' ? 'admin.team.changeRole' : 'admin.team.remove')}
          cancelLabel={t('dialog.cancel')}
          onConfirm={() => void confirm(pending)}
          busy={busy}
        />
      )}
    </div>
  );
}
