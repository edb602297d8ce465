import { atom } from 'nanostores';
import {
  PITCHING_LIMITS,
  ProjectRegistration,
  selectionProblem,
  StoryForm,
  StoryRegistration,
} from '@domain/kinds/pitching';
import type { T } from '@i18n/t';
import { toReceipt, type InvoiceValues } from '@components/forms/InvoiceFields';
import { errorMessages, record } from '@lib/form-values';
import type { PitchingUsage } from '@domain/contract';
import type { Work } from '@domain/works';
import { createWizard, createWorksList, issuesOnForm, storedIds, type Errors, type Wizard } from '@lib/wizard-state';
import { PITCHING_STEPS } from './pitching-steps';
import { emptyStory, hasStoryInput, parseStory, toStoryForm, type StoryValues } from './story-form';

/*
 * The pitching wizard's state (spec §2 pick works → fill form → pay; §5 pitching rules): the
 * steps, the draft, its errors and the works step's rules, on the one wizard skeleton. The view
 * (PitchingWizard) only shows it and sends the user's actions here.
 */

export const WORKS = 0;
export const FORM = 1;

/** What the user has entered: kept as a draft per user and event (sessionStorage). */
export type PitchingDraft = {
  agreePolicy: boolean;
  agreeTerms: boolean;
  selected: number[];
  story: StoryValues;
  invoice: InvoiceValues;
};

/** The applicant's works in live pitching registrations (`api.pitching.usage()`). */
export type Usage = PitchingUsage;

export const emptyPitchingDraft = (): PitchingDraft => ({
  agreePolicy: false,
  agreeTerms: false,
  selected: [],
  story: emptyStory(),
  invoice: { kind: 'personal', title: '', ubn: '' },
});

/** A stored draft, checked field by field (it comes from storage: anything may be there). */
export function parsePitchingDraft(raw: unknown): PitchingDraft | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = record(raw);
  const inv = record(d.invoice);
  return {
    agreePolicy: d.agreePolicy === true,
    agreeTerms: d.agreeTerms === true,
    selected: storedIds(d.selected),
    story: parseStory(d.story),
    invoice: {
      kind: inv.kind === 'company' ? 'company' : 'personal',
      title: typeof inv.title === 'string' ? inv.title : '',
      ubn: typeof inv.ubn === 'string' ? inv.ubn : '',
    },
  };
}

const hasInput = (d: PitchingDraft) =>
  d.selected.length > 0 || hasStoryInput(d.story) || d.invoice.title !== '' || d.invoice.ubn !== '';

/** Paths of the works step's own fields, checked there (not on the form step). */
export const WORKS_FIELDS = /^(agree|selectedContents)/;

export type PitchingSetup = {
  t: T;
  /** The story wizard (Story to Screen) has the story form; Project to Screen the invoice only. */
  story: boolean;
  signedIn: boolean;
  /** How many works one entry takes at most (null: up to the applicant's limit). */
  worksPerEntry: number | null;
  initialStep?: number;
};

export function createPitchingWizard(setup: PitchingSetup) {
  const { t, story } = setup;
  const $usage = atom<Usage | null>(null);
  const used = () => new Set($usage.get()?.usedContentIds ?? []);
  /** How many more works the applicant may enter (the server still enforces it). */
  const left = () => {
    const usage = $usage.get();
    return usage ? Math.max(0, usage.worksLimit - usage.worksUsed) : PITCHING_LIMITS.worksPerApplicant;
  };
  const works = (): Work[] => worksList.$works.get() ?? [];
  const workTitle = (id: number): string => works().find((w) => w.id === id)?.name ?? String(id);
  const workUsed = (id: number) => t('pitching.wizard.workUsed', { title: workTitle(id) });
  const tooMany = () => t('pitching.wizard.tooMany', { left: left(), limit: PITCHING_LIMITS.worksPerApplicant });

  /** The selection's own problem (spec §5): genres mixed, too many for the kind or the applicant, a used work. */
  function selectionIssue(selected: number[]): string | undefined {
    const genres = works()
      .filter((w) => selected.includes(w.id))
      .map((w) => w.genreId);
    const problem = selectionProblem({ worksPerEntry: setup.worksPerEntry }, genres);
    if (problem) return t(`apiError.${problem}`);
    if (selected.length > left()) return tooMany();
    const taken = selected.find((id) => used().has(String(id)));
    return taken === undefined ? undefined : workUsed(taken);
  }

  const formErrors = (d: PitchingDraft): Errors => ({
    ...(story ? errorMessages(t, toStoryForm(d.story), StoryForm) : {}),
    ...errorMessages(t, { receipt: toReceipt(d.invoice) }, ProjectRegistration),
  });

  const wizard: Wizard<PitchingDraft> = createWizard<PitchingDraft>(
    {
      steps: PITCHING_STEPS,
      empty: emptyPitchingDraft,
      parse: parsePitchingDraft,
      keep: (d) => hasInput(d) || d.agreePolicy || d.agreeTerms,
      hasInput,
      errorsAt: (d, step) =>
        step === FORM ? Object.fromEntries(Object.entries(formErrors(d)).filter(([p]) => !WORKS_FIELDS.test(p))) : {},
      problemAt: (d, step) => {
        if (step !== WORKS) return undefined;
        if (!d.agreePolicy || !d.agreeTerms) return t('pitching.wizard.agreeRequired');
        if (d.selected.length === 0) return t('pitching.wizard.worksRequired');
        return selectionIssue(d.selected);
      },
      // Issue 19 defect 8: a tick that breaks a rule is refused at once, with the reason beside the list.
      refuse: (before, after): string | undefined => {
        const added = after.selected.filter((id) => !before.selected.includes(id));
        if (added.length === 0) return undefined;
        const title = workTitle(added[0]!);
        const genres = new Set(
          works()
            .filter((w) => after.selected.includes(w.id))
            .map((w) => w.genreId),
        );
        if (genres.size > 1) return t('pitching.wizard.refusedMixed', { title });
        if (after.selected.length > left())
          return t('pitching.wizard.refusedLimit', { title, left: left(), limit: PITCHING_LIMITS.worksPerApplicant });
        if (setup.worksPerEntry !== null && after.selected.length > setup.worksPerEntry)
          return t('apiError.one_work_per_story');
        return undefined;
      },
      reachable: (d) => (setup.signedIn && d.agreePolicy && d.agreeTerms && d.selected.length > 0 ? FORM : WORKS),
    },
    { step: setup.initialStep ?? WORKS },
  );
  const worksList = createWorksList(wizard);

  /** The entry as the API takes it. */
  const entry = (d: PitchingDraft) => ({
    agreePolicy: d.agreePolicy,
    agreeTerms: d.agreeTerms,
    selectedContents: d.selected,
    receipt: toReceipt(d.invoice),
    ...(story ? toStoryForm(d.story) : {}),
  });

  /**
   * The whole entry checked before the submit: 'works' when the works step is not done (a draft
   * changed in another tab; its problem is shown there), 'form' with the form's errors shown, or
   * the body to send.
   */
  function submission(): { to: 'works' | 'form' } | { body: Record<string, unknown> } {
    const d = wizard.get().draft;
    const body = entry(d);
    const invalid = story ? errorMessages(t, body, StoryRegistration) : errorMessages(t, body, ProjectRegistration);
    const problem = wizard.rules.problemAt?.(d, WORKS);
    if (problem || Object.keys(invalid).some((p) => WORKS_FIELDS.test(p))) {
      wizard.showProblem(problem ?? t('pitching.wizard.worksRequired'));
      return { to: 'works' };
    }
    if (Object.keys(invalid).length > 0) {
      wizard.showErrors(invalid);
      return { to: 'form' };
    }
    return { body };
  }

  /** The API's field issues shown where they belong: the step to show (works or form), or null when none is ours. */
  function fieldIssues(paths: string[]): number | null {
    const d = wizard.get().draft;
    const found = issuesOnForm(paths, {
      worksStep: WORKS_FIELDS,
      fields: new Set([...Object.keys(story ? toStoryForm(d.story) : {}), 'receipt']),
      known: formErrors(d),
      invalid: t('form.invalid'),
    });
    if (found?.at === 'works') wizard.showProblem(t('pitching.wizard.worksRequired'));
    if (found?.at === 'form') wizard.showErrors(found.errors);
    return found ? (found.at === 'works' ? WORKS : FORM) : null;
  }

  return {
    ...wizard,
    $usage,
    works: worksList,
    left,
    used,
    workTitle,
    workUsed,
    submission,
    fieldIssues,
    /** Ticks or unticks a work (refused at the tick when it breaks a rule). */
    select: (ids: number[]) => wizard.edit((d) => ({ ...d, selected: ids })),
    /** Drops a work (refused by the server: already entered) from the selection. */
    drop: (id: number) => wizard.edit((d) => ({ ...d, selected: d.selected.filter((s) => s !== id) })),
    agree: (name: 'agreePolicy' | 'agreeTerms', checked: boolean) => wizard.edit((d) => ({ ...d, [name]: checked })),
    editStory: (change: (v: StoryValues) => StoryValues) => wizard.edit((d) => ({ ...d, story: change(d.story) })),
    editInvoice: (invoice: InvoiceValues) => wizard.edit((d) => ({ ...d, invoice })),
  };
}

export type PitchingWizardStore = ReturnType<typeof createPitchingWizard>;
