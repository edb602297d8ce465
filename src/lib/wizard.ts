import { useCallback, useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import type { PlacedOrder } from '@domain/contract';
import { ApiError } from './api';
import { browserApi } from './api.client';
import { clearDraft, readDraft, saveDraft } from './draft.store';
import type { Wizard } from './wizard-state';

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

/** The URL of a step (`?step=form`; none for the first). */
function stepUrl(names: readonly string[], step: number): URL {
  const url = new URL(location.href);
  if (step === 0) url.searchParams.delete('step');
  else url.searchParams.set('step', names[step]!);
  return url;
}

/**
 * Binds a wizard's store (lib/wizard-state) to the browser: its step lives in the URL with one
 * history entry per step (the browser's Back goes back one step, and Forward works too); the
 * tab's stored draft is read after hydration (the server cannot see it; until then the form shows
 * what the server rendered), then every change is kept at once (a reload, a language switch or
 * Back never loses it) while `rules.keep` says so, and not once submitted; leaving with unsaved
 * input asks first; a page back from the back-forward cache reads the draft again. `key` is the
 * draft's storage key (null: a visitor, nothing kept).
 */
export function useWizard<D>(wizard: Wizard<D>, key: string | null, onPageRestore?: () => void) {
  const state = useStore(wizard.$state);
  const names = wizard.rules.steps;

  const go = useCallback(
    (next: number, options: { replace?: boolean } = {}) => {
      const from = wizard.get().step;
      const opened = wizard.open(next);
      const url = stepUrl(names, opened);
      if (options.replace) history.replaceState({ wizardStep: opened }, '', url);
      else if (opened !== from)
        history.pushState({ wizardStep: opened, wizardFrom: from } satisfies StepState, '', url);
    },
    [wizard, names],
  );

  const back = useCallback(() => {
    const current = wizard.get().step;
    const state = history.state as Partial<StepState> | null;
    if (current === 0) return;
    if (state?.wizardStep === current && state.wizardFrom === current - 1) history.back();
    else go(current - 1);
  }, [wizard, go]);

  useEffect(() => {
    const onPop = () => wizard.open(stepFromSearch(location.search, names));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [wizard, names]);

  // The tab's draft, after hydration; a step the draft has not reached gives way to the last it has.
  useEffect(() => {
    const asked = wizard.get().step;
    const step = wizard.restore(key ? wizard.rules.parse(readDraft(key)) : null);
    if (step !== asked) history.replaceState({ wizardStep: step }, '', stepUrl(names, step));
  }, [wizard, key, names]);

  // Every change of the draft kept at once (or cleared when there is nothing to keep).
  useEffect(() => {
    if (!key) return;
    let kept = wizard.get().draft;
    return wizard.$state.listen((s) => {
      if (!s.restored || s.submitted || s.draft === kept) return;
      kept = s.draft;
      if (wizard.rules.keep(s.draft)) saveDraft(key, s.draft);
      else clearDraft(key);
    });
  }, [wizard, key]);

  const allowLeave = useLeaveGuard(state.restored && !state.submitted && wizard.rules.hasInput(state.draft));

  usePageRestore(() => {
    wizard.setBusy(false);
    wizard.setSubmitted(false);
    wizard.restore((key && wizard.rules.parse(readDraft(key))) || wizard.rules.empty());
    onPageRestore?.();
  });

  /** Leaves the wizard for good (after a submit, or for a page where it is over): the draft goes. */
  const finish = useCallback(
    (to: string) => {
      wizard.setSubmitted(true);
      allowLeave();
      if (key) clearDraft(key);
      location.assign(to);
    },
    [wizard, key, allowLeave],
  );

  /**
   * Places the wizard's order and goes on (`next`: pay, pending or the summary). Answers the API's refusal
   * to show (null when there is none to show: placed, a network failure the client reported, or a
   * 401 that sends to sign-in).
   */
  const placeOrder = async (
    at: { locale: string; base: string; eventSlug: string },
    body: Record<string, unknown>,
    query: { registrationType?: string } = {},
    next: (order: PlacedOrder, summary: string) => string = afterSubmitPath,
  ): Promise<ApiError | null> => {
    wizard.setBusy(true);
    try {
      const { order, summary } = await postOrder(at, body, query);
      finish(next(order, summary));
      return null;
    } catch (error) {
      wizard.setBusy(false);
      return error instanceof ApiError && error.status !== 401 ? error : null;
    }
  };

  return { ...state, go, back, allowLeave, finish, placeOrder };
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
 * The ref of the step's heading, which takes the focus when the step changes (not on the first
 * render), so keyboard and screen-reader users start at the top of the new step.
 */
export function useStepHeading(step: number, onChange?: (step: number) => void) {
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(step);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    changed.current?.(step);
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

export type { PlacedOrder };

/**
 * Places a wizard's order (the registration of the event `eventSlug`, plus `query`); answers the
 * order and the path of its summary page, from which the wizard goes on (pay, pending or the summary).
 */
export async function postOrder(
  at: { locale: string; base: string; eventSlug: string },
  body: Record<string, unknown>,
  query: { registrationType?: string } = {},
): Promise<{ order: PlacedOrder; summary: string }> {
  const order = await browserApi(at.locale, `${at.base}/`).registrations.create(at.eventSlug, body, query);
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
