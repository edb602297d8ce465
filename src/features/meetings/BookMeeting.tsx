import { useState, type FormEvent } from 'react';
import type { MeetingSlot } from '@domain/contract';
import { formatDateRange } from '@domain/format';
import { MEETING_MESSAGE_MAX } from '@domain/meetings';
import { createT, type Messages } from '@i18n/t';
import { ApiError, apiMessage } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { LabelledControl } from '@components/ui/FieldParts';

export type BookMeetingProps = {
  locale: 'en' | 'zh-TW';
  base: string;
  messages: Messages;
  exhibitorId: string;
  slots: MeetingSlot[];
};

type State = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * The booking form of an exhibitor's page (issue 23): a free slot, a short message, submit. A slot
 * taken meanwhile is answered with the next free ones, which replace the list.
 */
export default function BookMeeting(props: BookMeetingProps) {
  const t = createT(props.messages);
  const [slots, setSlots] = useState(props.slots);
  const [slotId, setSlotId] = useState(props.slots[0]?.id ?? '');
  const [message, setMessage] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setState({ kind: 'sending' });
    try {
      await browserApi(props.locale, `${props.base}/`).meetings.request({
        exhibitorId: props.exhibitorId,
        slotId,
        message,
      });
      setState({ kind: 'done' });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'slot_taken') {
        const next = (error.data.nextFreeSlots as MeetingSlot[] | undefined) ?? [];
        setSlots(next);
        setSlotId(next[0]?.id ?? '');
        setState({ kind: 'failed', message: t('meetings.book.taken') });
        return;
      }
      const text = error instanceof ApiError ? apiMessage(props.messages, error) : String(error);
      setState({ kind: 'failed', message: text });
    }
  }

  if (state.kind === 'done')
    return (
      <p role="status" className="rounded-md border border-green-700 bg-green-50 px-4 py-3 text-green-900">
        {t('meetings.book.done')}{' '}
        <a className="link" href={`${props.base}/account/meetings`}>
          {t('meetings.title')}
        </a>
      </p>
    );

  return (
    <form className="card max-w-xl space-y-4" onSubmit={(e) => void submit(e)} noValidate>
      {state.kind === 'failed' && (
        <p role="alert" className="rounded-md border border-red-500 bg-red-50 px-3 py-2 text-red-800">
          {state.message}
        </p>
      )}
      {slots.length === 0 ? (
        <p>{t('meetings.book.none')}</p>
      ) : (
        <>
          <LabelledControl id="meeting-slot" label={t('meetings.book.slot')}>
            <select
              id="meeting-slot"
              className="w-full rounded-md border border-neutral-400 px-3 py-2"
              value={slotId}
              onChange={(e) => setSlotId(e.target.value)}
            >
              {slots.map((s) => (
                <option key={s.id} value={s.id}>
                  {formatDateRange(s.startsAt, s.endsAt)}
                </option>
              ))}
            </select>
          </LabelledControl>
          <LabelledControl id="meeting-message" label={t('meetings.book.message')}>
            <textarea
              id="meeting-message"
              className="w-full rounded-md border border-neutral-400 px-3 py-2"
              rows={4}
              maxLength={MEETING_MESSAGE_MAX}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          </LabelledControl>
          <button type="submit" className="btn-primary" disabled={state.kind === 'sending' || !slotId}>
            {t('meetings.book.submit')}
          </button>
        </>
      )}
    </form>
  );
}
