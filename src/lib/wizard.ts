import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { stillAvailable, type Work } from '@domain/works';
import { browserApi } from './api.client';
import { clearDraft, readDraft, saveDraft } from './draft.store';

/*
 * What every wizard shares: its step lives in the URL (`?step=form`) with one history entry per
 * step, so the browser's Back goes back one step (spec §4 "Back returns one step and keeps the
 * form values"), a reload or a language switch (which keeps the query) opens the same step, and
 * leaving with unsaved input asks first.
 */

/** The step named in a URL's `step` parameter (the first step when absent or unknown). */
export function stepFromSearch(search: string, names: readonly string[]): number {
  const index = names.indexOf(new URLSearchParams(search).get('step') ?? '');
  return index > 0 ? index : 0;
}

type StepState = { wizardStep: number; wizardFrom?: number };

/**
 * The wizard's current step, kept in the URL and the history. `go` pushes an entry (or replaces
 * the current one); `back` returns to the previous step through the history when the previous
 * entry is that step, so the browser's Forward works too.
 */
export function useHistoryStep(names: readonly string[], initial: number) {
  const [step, setStep] = useState(initial);
  const current = useRef(initial);
  useEffect(() => {
    current.current = step;
  }, [step]);

  useEffect(() => {
    const onPop = () => setStep(stepFromSearch(location.search, names));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [names]);

  const go = useCallback(
    (next: number, options: { replace?: boolean } = {}) => {
      const url = new URL(location.href);
      if (next === 0) url.searchParams.delete('step');
      else url.searchParams.set('step', names[next]!);
      const state: StepState = { wizardStep: next, wizardFrom: current.current };
      if (options.replace) history.replaceState({ wizardStep: next }, '', url);
      else if (next !== current.current) history.pushState(state, '', url);
      setStep(next);
    },
    [names],
  );

  const back = useCallback(() => {
    const state = history.state as Partial<StepState> | null;
    const previous = current.current - 1;
    if (previous < 0) return;
    if (state?.wizardStep === current.current && state.wizardFrom === previous) history.back();
    else go(previous);
  }, [go]);

  return { step, go, back };
}

/**
 * Asks before the page is left while `active` (the browser's own "leave site?" prompt), except
 * for a click on a link of the portal itself: the draft is kept in the tab, so coming back to the
 * form restores it. Closing the tab, reloading, typing an address or logging out ask first.
 * Returns `allowLeave`, to call right before the form itself navigates away (after a submit).
 */
export function useLeaveGuard(active: boolean): () => void {
  const activeRef = useRef(active);
  const released = useRef(false);
  useEffect(() => {
    activeRef.current = active;
    released.current = false;
  }, [active]);
  useEffect(() => {
    let internal = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin) return;
      if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      internal = true;
      clearTimeout(timer);
      timer = setTimeout(() => (internal = false), 1000);
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!activeRef.current || released.current || internal) return;
      e.preventDefault();
    };
    document.addEventListener('click', onClick);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('click', onClick);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);
  return useCallback(() => {
    released.current = true;
  }, []);
}

/** Calls `restore` when the page comes back from the back-forward cache (the draft may have changed since). */
export function usePageRestore(restore: () => void) {
  const ref = useRef(restore);
  useEffect(() => {
    ref.current = restore;
  });
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) ref.current();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);
}

/**
 * A form's draft kept per user and form in the tab (sessionStorage, lib/draft.store): read after
 * hydration (the server cannot see the tab's storage; until then the form shows what the server
 * rendered), then every change saved at once — so a reload, a language switch or Back never loses
 * it — while `keep(draft)` says there is something to keep (cleared otherwise), and not once
 * `done` (after a submit). `reload()` reads it again (a page back from the back-forward cache).
 */
export function useKeptDraft<D>(options: {
  key: string | null;
  empty: () => D;
  /** A stored draft, checked field by field (storage may hold anything), or null. */
  parse: (raw: unknown) => D | null;
  keep: (draft: D) => boolean;
  done: boolean;
}): { draft: D; setDraft: Dispatch<SetStateAction<D>>; restored: boolean; reload: () => void } {
  const { key, empty, parse, keep, done } = options;
  const [draft, setDraft] = useState<D>(empty);
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    const saved = key ? parse(readDraft(key)) : null;
    if (saved) setDraft(saved);
    setRestored(true);
  }, [key]);

  useEffect(() => {
    if (!restored || !key || done) return;
    if (keep(draft)) saveDraft(key, draft);
    else clearDraft(key);
  }, [draft, key, restored, done]);

  const reload = () => setDraft((key && parse(readDraft(key))) || empty());
  return { draft, setDraft, restored, reload };
}

/**
 * The ref of the step's heading, which takes the focus when the step changes (not on the first
 * render), so keyboard and screen-reader users start at the top of the new step.
 */
export function useStepHeading(step: number, onChange?: (step: number) => void) {
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    onChange?.(step);
    requestAnimationFrame(() => heading.current?.focus());
  }, [step]);
  return heading;
}

/** Moves the focus to the first field marked invalid in a form (after the errors have rendered). */
export function focusFirstError() {
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>('form [aria-invalid="true"]:not([type="file"])')?.focus(),
  );
}

/**
 * The works of a wizard that picks them (Market, pitching), and the handler the works picker
 * calls with the content site's list: a selected work no longer in it (deleted on the content
 * site) leaves the draft.
 */
export function useWorksList<D extends { selected: number[] }>(setDraft: Dispatch<SetStateAction<D>>) {
  const [works, setWorks] = useState<Work[] | null>(null);
  const onWorks = useCallback(
    (list: Work[]) => {
      setWorks(list);
      setDraft((d) => {
        const selected = stillAvailable(d.selected, list);
        return selected === d.selected ? d : { ...d, selected };
      });
    },
    [setDraft],
  );
  return { works, setWorks, onWorks };
}

/** An order as `POST /api/v1/orders` answers it to a wizard. */
export type PlacedOrder = { orderId: string; paymentStatus: string; approvalStatus: string | null };

/**
 * Places a wizard's order (`POST /api/v1/orders?event={slug}`, plus `query`); answers the order
 * and the path of its summary page, from which the wizard goes on (pay, pending or the summary).
 */
export async function postOrder(
  at: { locale: string; base: string; eventSlug: string },
  body: Record<string, unknown>,
  query: Record<string, string> = {},
): Promise<{ order: PlacedOrder; summary: string }> {
  const api = browserApi(at.locale, `${at.base}/`);
  const order = await api.post<PlacedOrder>('/api/v1/orders', body, { event: at.eventSlug, ...query });
  const summary = `${at.base}/events/${encodeURIComponent(at.eventSlug)}/registrations/${encodeURIComponent(order.orderId)}`;
  return { order, summary };
}

/**
 * Where a wizard goes once its order is placed (spec §4 After a form submit): the pending page
 * while the order waits for approval, pay while it is unpaid, else its summary.
 */
export function afterSubmitPath(order: PlacedOrder, summary: string): string {
  if (order.approvalStatus === 'pending_approval') return `${summary}/pending`;
  return order.paymentStatus === 'pending' ? `${summary}/pay` : summary;
}
