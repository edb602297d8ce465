import { useId, useState, type SyntheticEvent } from 'react';
import { TextField } from '@components/ui/TextField';
import type { AdminEdition } from '@domain/contract';
import { BANK_FIELDS, EDITION_LIMITS } from '@domain/editions';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { Uploader, type UploadedFile } from '@components/uploads/Uploader';
import { ReadOnlyFields } from '../ReadOnlyFields';
import { useEditionSave } from './edition-issues';
import { SubmitRow } from '../form-parts';

/** The settings form fields, in order: names, time zone, contact, venue map, then the transfer instructions. */
const GENERAL = ['nameEn', 'nameZh', 'timeZone', 'contactEmail', 'venueMapUrl'] as const;
type Field = (typeof GENERAL)[number] | (typeof BANK_FIELDS)[number];
const FIELDS: readonly Field[] = [...GENERAL, ...BANK_FIELDS];

export type EditionSettingsFormProps = {
  locale: string;
  base: string;
  messages: Messages;
  edition: AdminEdition;
  /** A role without the `edition` right (viewer…): the settings shown, not changed. */
  readOnly?: boolean;
};

/**
 * The current edition's settings (issue 21, decision 049): names, time zone, contact e-mail, venue
 * map, the badge-rights image (an `event_image` upload, served resized; none: the portal's
 * default) and transfer instructions in both languages. An empty transfer field or venue map
 * shows its default (placeholder); the page reloads after a save so the preview shows what
 * registrants see.
 */
export default function EditionSettingsForm(props: EditionSettingsFormProps) {
  const t = createT(props.messages);
  const id = useId();
  const initial = Object.fromEntries(FIELDS.map((f) => [f, props.edition[f] ?? ''])) as Record<Field, string>;
  const [values, setValues] = useState(initial);
  const saved = props.edition.badgeRightsFileId
    ? {
        uid: props.edition.badgeRightsFileId,
        name: t('admin.edition.field.badgeRightsFileId'),
        url: props.edition.badgeRightsImage,
      }
    : null;
  const [image, setImage] = useState<UploadedFile | null>(saved);
  const { errors, status, busy, save } = useEditionSave(t, props.messages, (f) => `${id}-${f}`);

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const api = browserApi(props.locale, `${props.base}/`).admin.editions;
    const run = () =>
      api.update(props.edition.slug, {
        ...values,
        badgeRightsFileId: image?.uid ?? null,
        expectedUpdatedAt: props.edition.updatedAt,
      });
    if (await save(run, t('admin.edition.saved'), [...FIELDS, 'badgeRightsFileId'])) window.location.reload();
  }

  const field = (f: Field) => (
    <TextField
      key={f}
      id={`${id}-${f}`}
      label={t(`admin.edition.field.${f}`)}
      value={values[f]}
      onChange={(v) => setValues((all) => ({ ...all, [f]: v }))}
      max={f === 'nameEn' || f === 'nameZh' ? EDITION_LIMITS.name : EDITION_LIMITS.text}
      required={f === 'nameEn' || f === 'nameZh' || f === 'timeZone'}
      requiredLabel={t('admin.edition.required')}
      type={f === 'contactEmail' ? 'email' : f === 'venueMapUrl' ? 'url' : 'text'}
      hint={
        props.edition.defaults[f] ? t('admin.edition.defaultHint', { value: props.edition.defaults[f] }) : undefined
      }
      error={errors[f]}
    />
  );

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-6">
      <ReadOnlyFields readOnly={props.readOnly} className="space-y-6">
        <fieldset className="grid gap-4 md:grid-cols-2">
          <legend className="mb-2 font-semibold">{t('admin.edition.general')}</legend>
          {GENERAL.map(field)}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="mb-2 font-semibold">{t('admin.edition.field.badgeRightsFileId')}</legend>
          {props.readOnly ? (
            <img
              src={props.edition.badgeRightsImage}
              alt={t('admin.edition.badgeRightsAlt')}
              width={640}
              height={200}
              className="h-auto w-full max-w-md rounded"
            />
          ) : (
            <>
              <Uploader
                id={`${id}-badgeRightsFileId`}
                purpose="event_image"
                label={t('admin.edition.badgeRightsUpload')}
                hint={t('admin.edition.badgeRightsHint')}
                required={false}
                value={image}
                onChange={setImage}
                t={t}
                error={errors.badgeRightsFileId}
              />
              {image ? (
                <button type="button" className="btn-secondary" onClick={() => setImage(null)}>
                  {t('admin.edition.badgeRightsRemove')}
                </button>
              ) : (
                <p className="text-sm text-neutral-700">{t('admin.edition.badgeRightsDefault')}</p>
              )}
            </>
          )}
        </fieldset>
        <fieldset className="grid gap-4 md:grid-cols-2">
          <legend className="mb-2 font-semibold">{t('admin.edition.transfer')}</legend>
          {BANK_FIELDS.map(field)}
        </fieldset>
      </ReadOnlyFields>
      {!props.readOnly && <SubmitRow label={t('admin.edition.save')} busy={busy} status={status} />}
    </form>
  );
}
