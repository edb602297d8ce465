import { useId, useState, type SyntheticEvent } from 'react';
import { TextField } from '@components/ui/TextField';
import type { PickupSlot } from '@domain/contract';
import { createT, type Messages } from '@i18n/t';
import { browserApi } from '@lib/admin-api.client';
import { ReadOnlyFields } from '../ReadOnlyFields';
import { useEditionSave } from './edition-issues';
import { SubmitRow } from '../form-parts';

const COLUMNS = ['firstDay', 'lastDay', 'opensAt', 'closesAt', 'placeEn', 'placeZh'] as const;
type Row = Record<(typeof COLUMNS)[number], string>;
const blank = (): Row => ({ firstDay: '', lastDay: '', opensAt: '09:00', closesAt: '17:00', placeEn: '', placeZh: '' });

export type PickupScheduleEditorProps = {
  locale: string;
  base: string;
  messages: Messages;
  slots: PickupSlot[];
  /** A role without the `edition` right: the schedule shown, not changed. */
  readOnly?: boolean;
};

/**
 * The badge pick-up schedule editor (issue 21): days, hours and places in both languages, rows
 * added and removed, saved as a whole (`PUT /admin/pickup-schedule`); a refused row's field is
 * named and focused, and nothing is saved.
 */
export default function PickupScheduleEditor(props: PickupScheduleEditorProps) {
  const t = createT(props.messages);
  const id = useId();
  const [rows, setRows] = useState<Row[]>(
    props.slots.map(({ firstDay, lastDay, opensAt, closesAt, placeEn, placeZh }) => ({
      firstDay,
      lastDay,
      opensAt,
      closesAt,
      placeEn,
      placeZh,
    })),
  );
  const inputId = (i: number, c: string) => `${id}-${i}-${c}`;
  // An issue's path is `{row}.{column}`.
  const { errors, setErrors, status, busy, save } = useEditionSave(
    t,
    props.messages,
    (path) => `${id}-${path.replace('.', '-')}`,
  );

  async function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      () => browserApi(props.locale, `${props.base}/`).admin.pickupSchedule.replace(rows),
      t('admin.edition.scheduleSaved'),
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      {rows.length === 0 && <p>{t('admin.edition.scheduleEmpty')}</p>}
      <ReadOnlyFields readOnly={props.readOnly} className="space-y-4">
        {rows.map((row, i) => (
          <fieldset key={i} className="grid gap-3 rounded-md border border-neutral-300 p-3 md:grid-cols-2">
            <legend className="px-1 font-semibold">{t('admin.edition.slot', { n: i + 1 })}</legend>
            {COLUMNS.map((c) => (
              <TextField
                key={c}
                id={inputId(i, c)}
                label={t(`admin.edition.slotField.${c}`)}
                type={
                  c === 'firstDay' || c === 'lastDay' ? 'date' : c === 'opensAt' || c === 'closesAt' ? 'time' : 'text'
                }
                value={row[c]}
                onChange={(v) => setRows((all) => all.map((r, j) => (j === i ? { ...r, [c]: v } : r)))}
                required
                requiredLabel={t('admin.edition.required')}
                error={errors[`${i}.${c}`]}
              />
            ))}
            {!props.readOnly && (
              <div className="md:col-span-2">
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => {
                    setRows((all) => all.filter((_, j) => j !== i));
                    setErrors({});
                  }}
                >
                  {t('admin.edition.removeSlot', { n: i + 1 })}
                </button>
              </div>
            )}
          </fieldset>
        ))}
      </ReadOnlyFields>
      {!props.readOnly && (
        <SubmitRow label={t('admin.edition.saveSchedule')} busy={busy} status={status}>
          <button type="button" className="btn-secondary" onClick={() => setRows((all) => [...all, blank()])}>
            {t('admin.edition.addSlot')}
          </button>
        </SubmitRow>
      )}
    </form>
  );
}
