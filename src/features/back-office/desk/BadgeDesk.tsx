import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Messages } from '@i18n/t';
import { DeskAnswer } from './DeskAnswer';
import { DeskConflicts } from './DeskConflicts';
import { DeskScan } from './DeskScan';
import { DeskStatus } from './DeskStatus';
import { deskApi } from './desk-api';
import * as db from './desk-db';
import { cachePhotos, offlineKeeper } from './desk-offline';
import { createDesk, isSearch, matches, pendingIds, shownBadge } from './desk-store';
import { createDeskT } from './desk-words';

export type BadgeDeskProps = {
  locale: string;
  messages: Messages;
  /** The signed-in organiser's e-mail (shown on this desk's own pick-ups until they sync). */
  organiser: string;
  /** The desk's service worker (public/desk-sw.js, decision 028). */
  serviceWorker: string;
};

const DESK_NAME_KEY = 'tccf-desk-name';
/** How often an online desk sends its queue and fetches the badge list again. */
const SYNC_EVERY_MS = 30_000;

/**
 * The badge desk (issue 11): scan a badge's QR code (USB scanner into the field, the camera, or a
 * photo), see the badge with its photo and whether it was already picked up, and hand it out.
 * Works offline (decision 028): each scan is answered from the badge list kept in memory and in
 * IndexedDB, pick-ups wait in a queue there and are sent when the network is back; the server's
 * refusals come back as conflicts, listed until dismissed. The state and its actions are in
 * ./desk-store.ts; this island wires them to the browser and lays out the views.
 */
export default function BadgeDesk(props: BadgeDeskProps) {
  const t = createDeskT(props.messages);
  const [desk] = useState(() =>
    createDesk({
      api: deskApi,
      db,
      organiser: props.organiser,
      names: {
        get: () => localStorage.getItem(DESK_NAME_KEY),
        set: (name) => localStorage.setItem(DESK_NAME_KEY, name),
      },
      online: () => navigator.onLine,
      onList: (badges) => void cachePhotos(badges),
      keepOffline: offlineKeeper(props.serviceWorker),
    }),
  );
  const state = useSyncExternalStore(desk.$state.listen, desk.$state.get, desk.$state.get);
  const scanField = useRef<HTMLInputElement>(null);

  // Start: what this device keeps (the service worker is asked to keep the page), then a sync;
  // again every 30 s and whenever the browser says it is back online.
  useEffect(() => {
    void desk.start();
    addEventListener('online', desk.wentOnline);
    addEventListener('offline', desk.wentOffline);
    const timer = setInterval(() => {
      if (navigator.onLine) void desk.sync();
    }, SYNC_EVERY_MS);
    return () => {
      removeEventListener('online', desk.wentOnline);
      removeEventListener('offline', desk.wentOffline);
      clearInterval(timer);
    };
  }, [desk]);

  const pending = pendingIds(state);
  return (
    <div className="space-y-6">
      <DeskScan
        t={t}
        text={state.text}
        online={state.online}
        pending={state.queue.length + state.meetingQueue.length}
        searching={isSearch(state)}
        matches={matches(state)}
        inputRef={scanField}
        onText={desk.setText}
        onSubmit={() => void desk.submit()}
        onCode={(code) => void desk.check(code)}
        onOpen={desk.open}
      />
      <DeskAnswer
        t={t}
        result={state.result}
        meetingRefusals={state.meetingRefusals}
        badge={shownBadge(state)}
        pending={pending}
        desk={state.desk}
        organiser={props.organiser}
        fetchedAt={state.fetchedAt}
        answered={desk.answered}
        onHandOut={(badge) => void desk.handOut(badge, () => scanField.current?.focus())}
      />
      <DeskConflicts t={t} conflicts={state.conflicts} onDismiss={(id) => void desk.dismiss(id)} />
      <DeskStatus t={t} state={state} onSync={() => void desk.sync()} onDeskName={desk.changeDesk} />
    </div>
  );
}
