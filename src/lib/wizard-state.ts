import { atom, type ReadableAtom } from 'nanostores';
import { stillAvailable, type Work } from '@domain/works';

/*
 * The one wizard skeleton (issue 19: wizards as state plus thin views). A wizard's step, draft,
 * shown errors and the step's own problem live in a nanostores atom with pure rules; the island
 * reads it with `useStore` and binds the browser's parts (history, the tab's draft, the leave
 * prompt) through `useWizard` in lib/wizard. Nothing here touches the DOM, so every wizard's
 * rules are unit-tested on the store alone.
 */

/** Translated messages by field path (`copyrightContacts.1.email`). */
export type Errors = Record<string, string>;

export type WizardState<D> = {
  /** The step shown (its index in the URL names). */
  step: number;
  /** What the user has entered (kept in the tab as a draft). */
  draft: D;
  /** The shown field errors: set by a check, each gone as soon as its field is valid, none added before the next check. */
  errors: Errors;
  /** The step's own problem (not a field's: "tick both boxes", "projects and pieces cannot…"), shown beside its list. */
  problem: string | undefined;
  /** The tab's stored draft has been read (after hydration): steps the draft has not reached are closed. */
  restored: boolean;
  /** A submit is on its way. */
  busy: boolean;
  /** The order has been placed: the draft is not kept again and leaving no longer asks. */
  submitted: boolean;
};

export type WizardRules<D> = {
  /** The URL names of the steps the page shows (`?step=form`). */
  steps: readonly string[];
  empty: () => D;
  /** A stored draft, checked field by field (the tab's storage may hold anything), or null. */
  parse: (raw: unknown) => D | null;
  /** Whether the draft is worth keeping in the tab (a ticked box is). */
  keep: (draft: D) => boolean;
  /** Whether the user has typed or chosen something that leaving would lose (a ticked box alone is not). */
  hasInput: (draft: D) => boolean;
  /** The field errors of a step (translated): what Continue or the submit refuses with. */
  errorsAt?: (draft: D, step: number) => Errors;
  /** The step's own problem, checked on Continue; undefined when the user may go on. */
  problemAt?: (draft: D, step: number) => string | undefined;
  /**
   * Refuses an edit at once (not on Continue): the reason, and the edit does not happen. Pitching:
   * a 6th work, or a project beside a piece, is refused at the tick (issue 19 defect 8).
   */
  refuse?: (before: D, after: D) => string | undefined;
  /** The last step a draft may open (the steps before it done); a later one opened by URL lands there. */
  reachable?: (draft: D) => number;
};

export type Wizard<D> = {
  $state: ReadableAtom<WizardState<D>>;
  rules: WizardRules<D>;
  get: () => WizardState<D>;
  /** Changes the draft (or refuses the change, see `rules.refuse`): shown errors that now pass go. */
  edit: (change: (draft: D) => D) => void;
  /** Checks a step (the current one by default): shows its errors and problem; true when clean. */
  check: (step?: number) => boolean;
  /** Opens a step, or the last one the draft reaches (once restored); answers the step opened. */
  open: (step: number) => number;
  /** The tab's stored draft read (or none): answers the step shown, which a short draft may close. */
  restore: (draft: D | null) => number;
  /** Errors the server named, or a check of the whole entry before the submit. */
  showErrors: (errors: Errors) => void;
  showProblem: (problem: string | undefined) => void;
  setBusy: (busy: boolean) => void;
  setSubmitted: (submitted: boolean) => void;
};

/** The shown errors still failing (an error goes once its field is valid; none is added). */
export function stillShown(shown: Errors, now: Errors): Errors {
  const kept: Errors = {};
  for (const path of Object.keys(shown)) if (now[path]) kept[path] = now[path];
  return Object.keys(kept).length === Object.keys(shown).length && Object.keys(kept).every((p) => kept[p] === shown[p])
    ? shown
    : kept;
}

/** The errors of every step up to and including `step` (for a submit from the last one). */
export function errorsUpTo<D>(rules: WizardRules<D>, draft: D, step: number): Errors {
  let out: Errors = {};
  for (let s = 0; s <= step; s++) out = { ...out, ...(rules.errorsAt?.(draft, s) ?? {}) };
  return out;
}

export function createWizard<D>(rules: WizardRules<D>, initial: { step?: number; draft?: D } = {}): Wizard<D> {
  const last = rules.steps.length - 1;
  const clampStep = (step: number) => Math.min(Math.max(0, step), last);
  const $state = atom<WizardState<D>>({
    step: clampStep(initial.step ?? 0),
    draft: initial.draft ?? rules.empty(),
    errors: {},
    problem: undefined,
    restored: false,
    busy: false,
    submitted: false,
  });
  const get = () => $state.get();
  const set = (patch: Partial<WizardState<D>>) => $state.set({ ...get(), ...patch });
  const reach = (s: WizardState<D>, step: number) =>
    s.restored && rules.reachable ? Math.min(clampStep(step), rules.reachable(s.draft)) : clampStep(step);

  return {
    $state,
    rules,
    get,
    edit(change) {
      const s = get();
      const draft = change(s.draft);
      if (draft === s.draft) return;
      const refused = rules.refuse?.(s.draft, draft);
      if (refused) return set({ problem: refused });
      const errors = Object.keys(s.errors).length ? stillShown(s.errors, errorsUpTo(rules, draft, last)) : s.errors;
      // The step's problem stays while it is still the same one (a refusal goes with the next edit).
      const problem = s.problem && rules.problemAt?.(draft, s.step) === s.problem ? s.problem : undefined;
      set({ draft, errors, problem });
    },
    check(step) {
      const s = get();
      const at = step ?? s.step;
      const problem = rules.problemAt?.(s.draft, at);
      const errors = rules.errorsAt?.(s.draft, at) ?? {};
      set({ problem, errors });
      return !problem && Object.keys(errors).length === 0;
    },
    open(step) {
      const s = get();
      const next = reach(s, step);
      if (next !== s.step) set({ step: next, problem: undefined });
      return next;
    },
    restore(draft) {
      const s = { ...get(), restored: true, ...(draft ? { draft } : {}) };
      const step = reach(s, s.step);
      $state.set({ ...s, step });
      return step;
    },
    showErrors: (errors) => set({ errors }),
    showProblem: (problem) => set({ problem }),
    setBusy: (busy) => set({ busy }),
    setSubmitted: (submitted) => set({ submitted }),
  };
}

/** The works of a wizard that picks them (Market, pitching), as the content site last listed them. */
export function createWorksList<D extends { selected: number[] }>(wizard: Wizard<D>) {
  const $works = atom<Work[] | null>(null);
  return {
    $works,
    /** The content site's list: a selected work no longer in it (deleted there) leaves the draft. */
    loaded(list: Work[]) {
      $works.set(list);
      wizard.edit((d) => {
        const selected = stillAvailable(d.selected, list);
        return selected === d.selected ? d : { ...d, selected };
      });
    },
    /** Forgets the list (the picker loads it again). */
    reset: () => $works.set(null),
  };
}

/** A stored list of work ids, checked (storage may hold anything). */
export const storedIds = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((n): n is number => Number.isSafeInteger(n)) : [];

/**
 * The API's validation issues (camelCase paths) as a wizard shows them: 'works' when one names the
 * works step's fields (the wizard goes back there), the form's field errors (the message the
 * client knows for the path, else "invalid"), or null when none is the form's (an alert then).
 */
export function issuesOnForm(
  paths: readonly string[],
  form: { worksStep: RegExp; fields: ReadonlySet<string>; known: Errors; invalid: string },
): { at: 'works' } | { at: 'form'; errors: Errors } | null {
  if (paths.some((p) => form.worksStep.test(p))) return { at: 'works' };
  const ours = paths.filter((p) => form.fields.has(p.split('.')[0]!));
  if (ours.length === 0) return null;
  return { at: 'form', errors: Object.fromEntries(ours.map((p) => [p, form.known[p] ?? form.invalid])) };
}
