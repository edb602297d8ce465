import { useId, useState, type SyntheticEvent } from 'react';
import { TextField } from '@components/ui/TextField';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { useEditionSave } from './edition-issues';
import { SubmitRow } from '../form-parts';

export type EditionStartFormProps = {
  locale: string;
  base: string;
  messages: Messages;
  /** first: the portal's first edition (empty state); next: "Start the next edition" (copies the current one). */
  mode: 'first' | 'next';
};

/**
 * A new edition (issue 21): the first one of an empty portal, or the next one, whose events are
 * the current one's as drafts shifted to the chosen first day (decision 050). The page reloads on
 * the new current edition.
 */
export default function EditionStartForm(props: EditionStartFormProps) {
  const t = createT(props.messages);
  const id = useId();
  const fields =
    props.mode === 'next'
      ? (['nameEn', 'nameZh', 'slug', 'firstDay'] as const)
      : (['nameEn', 'nameZh', 'slug'] as const);
  const [values, setValues] = useState<Record<string, string>>({ nameEn: '', nameZh: '', slug: '', firstDay: '' });
  const { errors, status, busy, save } = useEditionSave(t, props.messages, (f) => `${id}-${f}`);

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const api = browserApi(props.locale, `${props.base}/`).admin.editions;
    const { nameEn = '', nameZh = '', slug = '', firstDay = '' } = values;
    const run = () =>
      props.mode === 'next' ? api.next({ nameEn, nameZh, slug, firstDay }) : api.create({ nameEn, nameZh, slug });
    if (await save(run, t('admin.edition.created'), fields)) window.location.reload();
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        {fields.map((f) => (
          <TextField
            key={f}
            id={`${id}-${f}`}
            label={t(`admin.edition.field.${f}`)}
            type={f === 'firstDay' ? 'date' : 'text'}
            value={values[f] ?? ''}
            onChange={(v) => setValues((all) => ({ ...all, [f]: v }))}
            required
            requiredLabel={t('admin.edition.required')}
            hint={
              f === 'slug'
                ? t('admin.edition.hint.slug')
                : f === 'firstDay'
                  ? t('admin.edition.hint.firstDay')
                  : undefined
            }
            error={errors[f]}
          />
        ))}
      </div>
      <SubmitRow
        label={t(props.mode === 'next' ? 'admin.edition.startNext' : 'admin.edition.create')}
        busy={busy}
        status={status}
      />
    </form>
  );
}
