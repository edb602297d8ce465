import { BadgeApplication, LIMITS } from '@domain/badges';
import type { T } from '@i18n/t';
import { fieldErrors } from '@lib/form-errors';
import { parseUploaded, record, text, type UploadedFile } from '@lib/form-values';
import { createWizard, type Errors } from '@lib/wizard-state';

/*
 * The badge application wizard's state (spec §2 Badges, §4 Badge flow, §5 limits): check identity
 * → fill form (then pay, or completed, on other pages). The draft, its errors and the "same as
 * applicant" copying on the one wizard skeleton; BadgeWizard shows it.
 */

/** URL names of the steps this page shows (`?step=form`); pay and completed are other pages. */
export const BADGE_STEPS = ['identity', 'form'] as const;
export const IDENTITY = 0;
export const FORM = 1;

export const PRINTED = ['nameZh', 'nameEn', 'companyNameZh', 'companyNameEn'] as const;
export type PrintedName = (typeof PRINTED)[number];
export type Applicant = Record<PrintedName | 'contactPhone', string>;
export type Printed = Record<PrintedName, string>;

/** What the user has entered: kept as a draft per user and form (sessionStorage), across pages. */
export type BadgeDraft = {
  agreed: boolean;
  applicant: Applicant;
  printed: Printed;
  same: boolean;
  photo: UploadedFile | null;
};

export const emptyBadgeDraft = (): BadgeDraft => ({
  agreed: false,
  applicant: { nameZh: '', nameEn: '', companyNameZh: '', companyNameEn: '', contactPhone: '' },
  printed: { nameZh: '', nameEn: '', companyNameZh: '', companyNameEn: '' },
  same: false,
  photo: null,
});

/** A stored draft, checked field by field (it comes from storage: anything may be there). */
export function parseBadgeDraft(raw: unknown): BadgeDraft | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = record(raw);
  const a = record(d.applicant);
  const p = record(d.printed);
  const printed = Object.fromEntries(PRINTED.map((n) => [n, text(p[n])])) as Printed;
  return {
    agreed: d.agreed === true,
    applicant: {
      ...(Object.fromEntries(PRINTED.map((n) => [n, text(a[n])])) as Printed),
      contactPhone: text(a.contactPhone),
    },
    printed,
    same: d.same === true,
    photo: parseUploaded(d.photo),
  };
}

/** Whether the user has typed or uploaded anything (a ticked box alone is not work to lose). */
const hasInput = (d: BadgeDraft) =>
  !!d.photo || Object.values(d.applicant).some((v) => v !== '') || Object.values(d.printed).some((v) => v !== '');

/** The application as the API takes it (the contact e-mail is the account's). */
export const application = (d: BadgeDraft, email: string) => ({
  applicant: { ...d.applicant, contactEmail: email },
  badge: d.printed,
  sameAsApplicant: d.same,
  personalPhotoFileId: d.photo?.uid ?? '',
});

/** Printed fields whose copied value is longer than the badge allows (shown while "same" is ticked). */
export const tooLongPrinted = (d: BadgeDraft): PrintedName[] =>
  d.same ? PRINTED.filter((n) => d.printed[n].length > LIMITS.badge[n]) : [];

export type BadgeSetup = { t: T; email: string; signedIn: boolean; initialStep?: number };

export function createBadgeWizard(setup: BadgeSetup) {
  const { t } = setup;
  const errorsOf = (d: BadgeDraft): Errors => {
    const messages: Errors = {};
    for (const [path, e] of Object.entries(fieldErrors(application(d, setup.email), BadgeApplication)))
      messages[path] = path === 'personalPhotoFileId' ? t('badge.noPhoto') : t(e.key, e.values);
    return messages;
  };
  const wizard = createWizard<BadgeDraft>(
    {
      steps: BADGE_STEPS,
      empty: emptyBadgeDraft,
      parse: parseBadgeDraft,
      keep: (d) => hasInput(d) || d.agreed,
      hasInput,
      errorsAt: (d, step) => (step === FORM ? errorsOf(d) : {}),
      // The form step needs a signed-in user who ticked the notice.
      reachable: (d) => (setup.signedIn && d.agreed ? FORM : IDENTITY),
    },
    { step: setup.initialStep ?? IDENTITY },
  );
  const edit = wizard.edit;

  return {
    ...wizard,
    /** The shown errors, with the printed fields too long after copying (before any check). */
    shownErrors(state: { draft: BadgeDraft; errors: Errors }): Errors {
      const shown = { ...state.errors };
      for (const n of tooLongPrinted(state.draft)) shown[`badge.${n}`] ??= t('form.tooLong', { max: LIMITS.badge[n] });
      return shown;
    },
    /** The application to send. */
    body: () => application(wizard.get().draft, setup.email),
    agree: (agreed: boolean) => edit((d) => ({ ...d, agreed })),
    /** An applicant field; while "same as applicant" is ticked, its printed copy follows until edited. */
    setApplicant: (name: keyof Applicant, value: string) =>
      edit((d) => {
        const next = { ...d, applicant: { ...d.applicant, [name]: value } };
        if (d.same && name !== 'contactPhone' && d.printed[name] === d.applicant[name])
          next.printed = { ...d.printed, [name]: value };
        return next;
      }),
    setPrinted: (name: PrintedName, value: string) => edit((d) => ({ ...d, printed: { ...d.printed, [name]: value } })),
    /** Ticking copies the applicant's values into the printed fields, which stay editable; unticking keeps them. */
    setSame: (same: boolean) =>
      edit((d) => ({
        ...d,
        same,
        printed: same ? (Object.fromEntries(PRINTED.map((n) => [n, d.applicant[n]])) as Printed) : d.printed,
      })),
    setPhoto: (photo: UploadedFile | null) => edit((d) => ({ ...d, photo })),
    /** The server refused the photo. */
    photoRefused: () => wizard.showErrors({ ...wizard.get().errors, personalPhotoFileId: t('badge.noPhoto') }),
  };
}

export type BadgeWizardStore = ReturnType<typeof createBadgeWizard>;
