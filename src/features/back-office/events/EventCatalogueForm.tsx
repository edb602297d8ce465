import { lazy, Suspense, useId, useState, type ReactNode, type SyntheticEvent } from 'react';
import { SelectField } from '@components/forms/SelectField';
import { TextAreaField } from '@components/forms/TextAreaField';
import { TextField } from '@components/ui/TextField';
import {
  ADDRESS_PARTS,
  applyEventPatch,
  approvalOffered,
  catalogueIssues,
  CATALOGUE_FIELDS,
  createFromForm,
  detailsFromForm,
  EVENT_CATALOGUE_LIMITS,
  includedBadgesOffered,
  type CatalogueEvent,
  type CatalogueForm as FormValues,
  type CatalogueIssue,
  type EventStatus,
} from '@domain/event-catalogue';
import type { EventSettingsForm } from '@domain/event-settings';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import type { UploadedFile } from '@components/uploads/Uploader';
import type { TypeChoice } from './event-catalogue';
import { saveEvent, SETTING_FIELDS } from './event-save';
import { FormFailure, SubmitRow } from '../form-parts';
import { ReadOnlyFields } from '../ReadOnlyFields';

const Uploader = lazy(() => import('@components/uploads/Uploader').then((m) => ({ default: m.Uploader })));

export type EventCatalogueFormProps = {
  locale: string;
  base: string;
  messages: Messages;
  /** The types the registry knows, with the kind's facts. */
  types: TypeChoice[];
  initial: FormValues;
  /** The event's image as it is (its file and the resized copy the public sees), if any. */
  initialImage: UploadedFile | null;
  /** A role without the `edition` right: the details shown, not changed (no image upload, no save). */
  readOnly?: boolean;
} & (
  | { mode: 'create'; initialSettings: EventSettingsForm }
  | {
      mode: 'edit';
      slug: string;
      status: EventStatus;
      /** Orders of any status: with one, the type is fixed. */
      hasOrders: boolean;
      seatsTaken: number;
      /** The event as loaded (ISO dates): the rules compare the change against it. */
      current: Omit<
        CatalogueEvent,
        'startTime' | 'endAt' | 'registerStartAt' | 'registerEndAt' | 'formModifyExpiresAt'
      > & {
        startTime: string;
        endAt: string;
        registerStartAt: string;
        registerEndAt: string;
        formModifyExpiresAt: string | null;
      };
      updatedAt: string;
    }
);

type Path = CatalogueIssue['path'];
type Issue = Pick<CatalogueIssue, 'path' | 'code' | 'values'>;
/**
 * The order errors are focused in: the form's order, the catalogue's fields' (settings last) with
 * the slug after the type and the country after the addresses.
 */
const ORDER: Path[] = CATALOGUE_FIELDS.flatMap((f): Path[] =>
  f === 'type' ? ['type', 'slug'] : f === 'addressZh' ? ['addressZh', 'addressCountry'] : [f],
);
/** The input an issue's field is shown at (an address's issues at its street). */
const inputOf = (path: Path) => (path === 'addressEn' || path === 'addressZh' ? `${path}-streetAddress` : path);

/**
 * The event catalogue's form (issue 21): a new event (the type first, then the fields that type
 * has, both languages side by side, its settings) or an existing event's details (its settings
 * keep their own form). The domain's rules run as the organiser saves, and again in the API; the
 * API's field issues come back to their fields.
 */
export default function EventCatalogueForm(props: EventCatalogueFormProps) {
  const t = createT(props.messages);
  const id = useId();
  const [values, setValues] = useState<FormValues>(props.initial);
  const [settings, setSettings] = useState<EventSettingsForm | null>(
    props.mode === 'create' ? props.initialSettings : null,
  );
  const [errors, setErrors] = useState<Partial<Record<Path, string>>>({});
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [image, setImage] = useState<UploadedFile | null>(props.initialImage);
  const choice = props.types.find((c) => c.value === values.type);
  const kind = choice?.facts;
  const typeFixed = props.mode === 'edit' && (props.status !== 'draft' || props.hasOrders);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((all) => ({ ...all, [key]: value }));
  const inputId = (path: string) => `${id}-${path}`;

  const show = (issues: Issue[]) => {
    const out: Partial<Record<Path, string>> = {};
    for (const i of issues) out[i.path] ??= t(`admin.events.issue.${i.code}`, i.values);
    setErrors(out);
    setStatus(t('admin.events.invalid'));
    const first = ORDER.find((p) => out[p]);
    if (first) document.getElementById(inputId(inputOf(first)))?.focus();
  };

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure('');
    setStatus('');
    if (!kind) return show([{ path: 'type', code: 'required' }]);
    const api = browserApi(props.locale, `${props.base}/`);
    const form = { t, messages: props.messages, failedKey: 'admin.events.failedEvent' as const };
    await saveEvent({ ...form, setBusy, setStatus, setFailure, show: (i) => show(i as Issue[]) }, async () => {
      if (props.mode === 'create') {
        const read = createFromForm(values, settings!, kind);
        if (!read.ok) {
          show(read.issues);
          return null;
        }
        setErrors({});
        setBusy(true);
        await api.admin.events.create(read.body);
        location.assign(`${props.base}/admin/events/${encodeURIComponent(read.body.slug)}?done=created`);
        return null;
      }
      const read = detailsFromForm(values, kind);
      if (!read.ok) {
        show(read.issues);
        return null;
      }
      const c = props.current;
      const current: CatalogueEvent = {
        ...c,
        startTime: new Date(c.startTime),
        endAt: new Date(c.endAt),
        registerStartAt: new Date(c.registerStartAt),
        registerEndAt: new Date(c.registerEndAt),
        formModifyExpiresAt: c.formModifyExpiresAt ? new Date(c.formModifyExpiresAt) : null,
      };
      const issues = catalogueIssues(applyEventPatch(current, read.patch), kind, {
        seatsTaken: props.seatsTaken,
        typeChanged: read.patch.type !== c.type,
        status: props.status,
        orders: props.hasOrders ? 1 : 0,
      });
      if (issues.length) {
        show(issues);
        return null;
      }
      setErrors({});
      setBusy(true);
      const { data } = await api.admin.events.update(props.slug, { ...read.patch, expectedUpdatedAt: props.updatedAt });
      return data.changed;
    });
  }

  const text = (path: 'nameEn' | 'nameZh' | 'locationEn' | 'locationZh', max: number, required = false) => (
    <TextField
      id={inputId(path)}
      label={t(`admin.events.field.${path}`)}
      value={values[path]}
      onChange={(v) => set(path, v)}
      max={max}
      required={required}
      requiredLabel={t('admin.events.requiredMark')}
      hint={path.startsWith('location') ? t('admin.events.hint.location') : undefined}
      error={errors[path]}
    />
  );
  const pair = (en: ReactNode, zh: ReactNode) => (
    <div className="grid gap-4 md:grid-cols-2">
      <div lang="en">{en}</div>
      <div lang="zh-TW">{zh}</div>
    </div>
  );
  const address = (lang: 'En' | 'Zh') => (
    <fieldset className="space-y-3 rounded-md border border-neutral-300 p-3">
      <legend className="px-1 text-sm font-semibold">{t(`admin.events.field.address${lang}`)}</legend>
      {ADDRESS_PARTS.map((part) => (
        <TextField
          key={part}
          id={inputId(`address${lang}-${part}`)}
          label={t(`admin.events.field.${part}`)}
          value={values[`address${lang}`][part]}
          onChange={(v) => set(`address${lang}`, { ...values[`address${lang}`], [part]: v })}
          max={part === 'postalCode' ? 20 : EVENT_CATALOGUE_LIMITS.addressPart}
          error={part === 'streetAddress' ? errors[`address${lang}`] : undefined}
        />
      ))}
    </fieldset>
  );

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-6">
      <ReadOnlyFields readOnly={props.readOnly} className="space-y-6">
        <p className="text-sm text-neutral-700">{t('admin.events.timesNote')}</p>
        <div className="grid gap-4 md:grid-cols-2">
          {typeFixed ? (
            <TextField
              id={inputId('type')}
              label={t('admin.events.field.type')}
              value={choice?.label ?? values.type}
              onChange={() => undefined}
              readOnly
              hint={t('admin.events.hint.typeFixed')}
            />
          ) : (
            <SelectField
              id={inputId('type')}
              label={t('admin.events.field.type')}
              requiredLabel={t('admin.events.requiredMark')}
              value={values.type}
              onChange={(v) => set('type', v as FormValues['type'])}
              placeholder={t('admin.events.choose')}
              options={props.types.map((c) => ({ value: c.value, label: c.label }))}
              error={errors.type}
            />
          )}
          {props.mode === 'create' && (
            <TextField
              id={inputId('slug')}
              label={t('admin.events.field.slug')}
              value={values.slug}
              onChange={(v) => set('slug', v)}
              max={EVENT_CATALOGUE_LIMITS.slug.max}
              required
              requiredLabel={t('admin.events.requiredMark')}
              hint={t('admin.events.hint.slug')}
              error={errors.slug}
            />
          )}
        </div>
        {!kind ? (
          <p className="text-sm text-neutral-700">{t('admin.events.kindFirst')}</p>
        ) : (
          <>
            {pair(text('nameEn', EVENT_CATALOGUE_LIMITS.name, true), text('nameZh', EVENT_CATALOGUE_LIMITS.name, true))}
            {pair(
              ...((['descriptionEn', 'descriptionZh'] as const).map((path) => (
                <TextAreaField
                  key={path}
                  id={inputId(path)}
                  label={t(`admin.events.field.${path}`)}
                  value={values[path]}
                  onChange={(v) => set(path, v)}
                  max={EVENT_CATALOGUE_LIMITS.description}
                  rows={6}
                  hint={t('admin.events.hint.description', { syntax: '[text](https://…)' })}
                  error={errors[path]}
                />
              )) as [ReactNode, ReactNode]),
            )}
            {pair(
              text('locationEn', EVENT_CATALOGUE_LIMITS.location),
              text('locationZh', EVENT_CATALOGUE_LIMITS.location),
            )}
            {kind.attendance === 'venue' && (
              <div className="space-y-3">
                <label className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1 h-4 w-4"
                    checked={values.ownAddress}
                    onChange={(e) => set('ownAddress', e.target.checked)}
                  />
                  <span>{t('admin.events.field.ownAddress')}</span>
                </label>
                {values.ownAddress && (
                  <>
                    {pair(address('En'), address('Zh'))}
                    <div className="max-w-xs">
                      <TextField
                        id={inputId('addressCountry')}
                        label={t('admin.events.field.addressCountry')}
                        value={values.addressCountry}
                        onChange={(v) => set('addressCountry', v)}
                        max={2}
                        error={errors.addressCountry}
                      />
                    </div>
                  </>
                )}
              </div>
            )}
            <div className="grid gap-4 md:grid-cols-2">
              {(['startTime', 'endAt'] as const).map((path) => (
                <TextField
                  key={path}
                  id={inputId(path)}
                  type="datetime-local"
                  label={t(`admin.events.field.${path}`)}
                  value={values[path]}
                  onChange={(v) => set(path, v)}
                  required
                  requiredLabel={t('admin.events.requiredMark')}
                  error={errors[path]}
                />
              ))}
            </div>
            {approvalOffered(kind) ? (
              <div>
                <label className="flex items-start gap-2">
                  <input
                    id={inputId('requiresApproval')}
                    type="checkbox"
                    className="mt-1 h-4 w-4"
                    checked={values.requiresApproval}
                    onChange={(e) => set('requiresApproval', e.target.checked)}
                    aria-invalid={errors.requiresApproval ? true : undefined}
                  />
                  <span>{t('admin.events.field.requiresApproval')}</span>
                </label>
                {errors.requiresApproval && <p className="text-xs text-red-700">{errors.requiresApproval}</p>}
              </div>
            ) : (
              kind.approval === 'always' && (
                <p className="text-sm text-neutral-700">{t('admin.events.approvalAlways')}</p>
              )
            )}
            {includedBadgesOffered(kind) && (
              <div className="max-w-xs">
                <TextField
                  id={inputId('includedBadges')}
                  label={t('admin.events.field.includedBadges')}
                  inputMode="numeric"
                  value={values.includedBadges}
                  onChange={(v) => set('includedBadges', v)}
                  hint={t('admin.events.hint.includedBadges', { n: kind.includedBadges })}
                  error={errors.includedBadges}
                />
              </div>
            )}
            {kind.attendance === 'online' && (
              <TextField
                id={inputId('liveStreamUrl')}
                label={t('admin.events.field.liveStreamUrl')}
                type="url"
                inputMode="url"
                value={values.liveStreamUrl}
                onChange={(v) => set('liveStreamUrl', v)}
                max={EVENT_CATALOGUE_LIMITS.url}
                hint={t('admin.events.hint.liveStreamUrl')}
                error={errors.liveStreamUrl}
              />
            )}
            {props.readOnly ? (
              <div className="space-y-2">
                <p className="font-semibold">{t('admin.events.field.imageFileId')}</p>
                {image ? (
                  <img src={image.url} alt={t('admin.events.field.imageFileId')} className="h-auto max-w-xs rounded" />
                ) : (
                  <p>{t('admin.events.noImage')}</p>
                )}
              </div>
            ) : (
              <div className="space-y-2">
                <Suspense fallback={null}>
                  <Uploader
                    id={inputId('imageFileId')}
                    purpose="event_image"
                    label={t('admin.events.field.imageFileId')}
                    hint={t('admin.events.hint.image')}
                    required={false}
                    value={image}
                    onChange={(file) => {
                      setImage(file);
                      set('imageFileId', file?.uid ?? '');
                    }}
                    t={t}
                    error={errors.imageFileId}
                  />
                </Suspense>
                {image && (
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => {
                      setImage(null);
                      set('imageFileId', '');
                    }}
                  >
                    {t('admin.events.removeImage')}
                  </button>
                )}
              </div>
            )}
            {settings && (
              <fieldset className="space-y-4">
                <legend className="mb-2 text-lg font-semibold">{t('admin.events.settings')}</legend>
                {!kind.holdsSeat && <p className="text-sm text-neutral-700">{t('admin.events.seatsNotCounted')}</p>}
                {kind.quantity === 'per_work' && (
                  <p className="text-sm text-neutral-700">{t('admin.events.perWork')}</p>
                )}
                <div className="grid gap-4 md:grid-cols-2">
                  {SETTING_FIELDS.filter(
                    (s) =>
                      (s.field !== 'capacity' || kind.holdsSeat) &&
                      (kind.price !== 'none' || !s.field.startsWith('price')),
                  ).map((s) => (
                    <TextField
                      key={s.field}
                      id={inputId(s.field)}
                      label={t(`admin.events.field.${s.field}`)}
                      type={s.type}
                      inputMode={s.inputMode}
                      value={settings[s.field]}
                      onChange={(v) => setSettings({ ...settings, [s.field]: v })}
                      hint={s.hint ? t(`admin.events.hint.${s.field}`, { taken: 0 }) : undefined}
                      error={errors[s.field]}
                    />
                  ))}
                </div>
              </fieldset>
            )}
          </>
        )}
      </ReadOnlyFields>
      <FormFailure text={failure} />
      {!props.readOnly && (
        <SubmitRow
          label={
            props.mode === 'create'
              ? busy
                ? t('admin.events.creating')
                : t('admin.events.create')
              : busy
                ? t('admin.events.saving')
                : t('admin.events.saveDetails')
          }
          busy={busy}
          status={status}
        />
      )}
    </form>
  );
}
