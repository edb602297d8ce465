import { ExhibitorForm, MarketRegistration } from '@domain/kinds/market';
import type { T } from '@i18n/t';
import { errorMessages, record } from '@lib/form-values';
import { createWizard, createWorksList, issuesOnForm, storedIds } from '@lib/wizard-state';
import {
  emptyExhibitor,
  hasExhibitorInput,
  parseExhibitor,
  toExhibitorForm,
  type ExhibitorValues,
} from './exhibitor-form';

/*
 * The Market wizard's state (spec §2 Wizard steps by flow): early-bird = upload content → pick
 * identity → pick works → fill form (submit); online = … fill form → review (submit, then wait for
 * approval). The steps, draft, errors and rules on the one wizard skeleton; MarketWizard shows it.
 */

/**
 * URL names of the steps (`?step=form`): a kind the organiser approves first (online) submits
 * from a review step, the others (early-bird) from the form.
 */
export const marketStepNames = (review: boolean): readonly string[] => (review ? REVIEW_STEPS : FORM_STEPS);
const FORM_STEPS = ['upload', 'identity', 'works', 'form'] as const;
const REVIEW_STEPS = ['upload', 'identity', 'works', 'form', 'review'] as const;
export const UPLOAD = 0;
export const IDENTITY = 1;
export const WORKS = 2;
export const FORM = 3;
export const REVIEW = 4;

/** What the user has entered: kept as a draft per user and event (sessionStorage). */
export type MarketDraft = {
  agreeTerms: boolean;
  agreeDisclosure: boolean;
  identity: number | null;
  selected: number[];
  form: ExhibitorValues;
};

export function emptyMarketDraft(offered: readonly number[]): MarketDraft {
  return {
    agreeTerms: false,
    agreeDisclosure: false,
    identity: offered.length === 1 ? offered[0]! : null,
    selected: [],
    form: emptyExhibitor(),
  };
}

/** A stored draft, checked field by field (it comes from storage: anything may be there). */
export function parseMarketDraft(raw: unknown, offered: readonly number[]): MarketDraft | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = record(raw);
  const identity = typeof d.identity === 'number' && offered.includes(d.identity) ? d.identity : null;
  return {
    agreeTerms: d.agreeTerms === true,
    agreeDisclosure: d.agreeDisclosure === true,
    identity: identity ?? emptyMarketDraft(offered).identity,
    selected: storedIds(d.selected),
    form: parseExhibitor(d.form),
  };
}

const hasInput = (d: MarketDraft) => d.selected.length > 0 || hasExhibitorInput(d.form);

/** The identity step is done: both boxes ticked and a participation type chosen. */
export const identityDone = (d: MarketDraft) => d.agreeTerms && d.agreeDisclosure && d.identity !== null;

export type MarketSetup = {
  t: T;
  /** The participation types the event offers. */
  offered: readonly number[];
  /** The organiser approves the registration first (a review step submits). */
  review: boolean;
  signedIn: boolean;
  initialStep?: number;
};

export function createMarketWizard(setup: MarketSetup) {
  const { t, offered, review } = setup;
  const formErrors = (form: ExhibitorValues) => errorMessages(t, toExhibitorForm(form), ExhibitorForm);
  const wizard = createWizard<MarketDraft>(
    {
      steps: marketStepNames(review),
      empty: () => emptyMarketDraft(offered),
      parse: (raw) => parseMarketDraft(raw, offered),
      keep: (d) => hasInput(d) || d.agreeTerms || d.agreeDisclosure,
      hasInput,
      errorsAt: (d, step) => (step === FORM ? formErrors(d.form) : {}),
      problemAt: (d, step) => (step === WORKS && d.selected.length === 0 ? t('market.works.required') : undefined),
      reachable: (d) => {
        if (!identityDone(d)) return IDENTITY;
        if (!setup.signedIn || d.selected.length === 0) return WORKS;
        if (Object.keys(formErrors(d.form)).length > 0) return FORM;
        return review ? REVIEW : FORM;
      },
    },
    { step: setup.initialStep ?? UPLOAD },
  );
  const works = createWorksList(wizard);

  /** The registration as the API takes it. */
  const registration = (d: MarketDraft) => ({
    ...toExhibitorForm(d.form),
    agreeTerms: true,
    agreeDisclosure: true,
    marketIdentity: d.identity,
    selectedContents: d.selected,
  });

  /**
   * The whole registration checked before the submit: the step that still misses something (a
   * draft changed in another tab), the form's errors shown, or the body to send.
   */
  function submission(): { to: number } | { body: Record<string, unknown> } {
    const body = registration(wizard.get().draft);
    const invalid = errorMessages(t, body, MarketRegistration);
    if (Object.keys(invalid).length === 0) return { body };
    if (Object.keys(invalid).some((p) => p.startsWith('agree') || p === 'marketIdentity')) return { to: IDENTITY };
    if (invalid.selectedContents) return { to: WORKS };
    wizard.showErrors(invalid);
    return { to: FORM };
  }

  /** The API's field issues shown where they belong: the step to show, or null when none is ours. */
  function fieldIssues(paths: string[]): number | null {
    const d = wizard.get().draft;
    const found = issuesOnForm(paths, {
      worksStep: /^selectedContents/,
      fields: new Set(Object.keys(toExhibitorForm(d.form))),
      known: formErrors(d.form),
      invalid: t('form.invalid'),
    });
    if (found?.at === 'works') {
      wizard.showProblem(t('market.works.required'));
      return WORKS;
    }
    if (found?.at === 'form') {
      wizard.showErrors(found.errors);
      return FORM;
    }
    return null;
  }

  return {
    ...wizard,
    works,
    submission,
    fieldIssues,
    chooseIdentity: (identity: number) => wizard.edit((d) => ({ ...d, identity })),
    agree: (name: 'agreeTerms' | 'agreeDisclosure', checked: boolean) =>
      wizard.edit((d) => ({ ...d, [name]: checked })),
    select: (ids: number[]) => wizard.edit((d) => ({ ...d, selected: ids })),
    editForm: (change: (v: ExhibitorValues) => ExhibitorValues) => wizard.edit((d) => ({ ...d, form: change(d.form) })),
  };
}

export type MarketWizardStore = ReturnType<typeof createMarketWizard>;
