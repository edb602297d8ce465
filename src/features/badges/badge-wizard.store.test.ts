import { describe, expect, it } from 'vitest';
import { wordsOf } from '@i18n/catalogues';
import type { T } from '@i18n/t';
import { createBadgeWizard, FORM, IDENTITY, tooLongPrinted } from './badge-wizard.store';

const t = wordsOf('en', 'pages') as T;

function badge(signedIn = true, initialStep?: number) {
  const wizard = createBadgeWizard({ t, email: 'ann@example.com', signedIn, initialStep });
  wizard.restore(null);
  return wizard;
}

describe('the badge wizard store', () => {
  it('opens the form only for a signed-in user who ticked the notice', () => {
    const wizard = createBadgeWizard({ t, email: 'ann@example.com', signedIn: true, initialStep: FORM });
    expect(wizard.restore(null)).toBe(IDENTITY);
    wizard.agree(true);
    expect(wizard.open(FORM)).toBe(FORM);
    const visitor = badge(false);
    visitor.agree(true);
    expect(visitor.open(FORM)).toBe(IDENTITY);
  });

  it('copies the applicant into the printed fields, which follow until edited', () => {
    const wizard = badge();
    wizard.setApplicant('nameEn', 'Ann Lee');
    wizard.setSame(true);
    expect(wizard.get().draft.printed.nameEn).toBe('Ann Lee');
    wizard.setApplicant('nameEn', 'Ann B. Lee');
    expect(wizard.get().draft.printed.nameEn).toBe('Ann B. Lee');
    wizard.setPrinted('nameEn', 'ANN');
    wizard.setApplicant('nameEn', 'Ann C. Lee');
    expect(wizard.get().draft.printed.nameEn).toBe('ANN');
    wizard.setSame(false);
    expect(wizard.get().draft.printed.nameEn).toBe('ANN');
  });

  it('shows a copied name too long for the badge before any check', () => {
    const wizard = badge();
    wizard.setApplicant('nameEn', 'Annabelle Longname-Smith');
    wizard.setSame(true);
    const { draft, errors } = wizard.get();
    expect(tooLongPrinted(draft)).toEqual(['nameEn']);
    expect(wizard.shownErrors({ draft, errors })).toEqual({ 'badge.nameEn': 'At most 17 characters' });
  });

  it('checks the form, the photo included, and drops each error once fixed', () => {
    const wizard = badge();
    wizard.agree(true);
    wizard.open(FORM);
    expect(wizard.check()).toBe(false);
    const errors = wizard.get().errors;
    expect(errors['applicant.nameEn']).toBe('This field is required');
    expect(errors['badge.nameEn']).toBe('This field is required');
    expect(errors.personalPhotoFileId).toBe('No personal photo selected');
    wizard.setApplicant('nameEn', 'Ann Lee');
    expect(wizard.get().errors['applicant.nameEn']).toBeUndefined();
    wizard.setPhoto({ uid: '0190a7f0-0000-7000-8000-000000000001', name: 'me.jpg', url: '/f/me.jpg' });
    expect(wizard.get().errors.personalPhotoFileId).toBeUndefined();
    wizard.photoRefused();
    expect(wizard.get().errors.personalPhotoFileId).toBe('No personal photo selected');
  });

  it('sends the application with the account e-mail', () => {
    const wizard = badge();
    wizard.setApplicant('contactPhone', '+886-2-1234-5678');
    expect(wizard.body()).toMatchObject({
      applicant: { contactPhone: '+886-2-1234-5678', contactEmail: 'ann@example.com' },
      sameAsApplicant: false,
      personalPhotoFileId: '',
    });
  });

  it('reads a stored draft field by field', () => {
    const wizard = badge();
    expect(
      wizard.rules.parse({ agreed: true, applicant: { nameEn: 'Ann', nameZh: 5 }, photo: { uid: 1 } }),
    ).toMatchObject({ agreed: true, applicant: { nameEn: 'Ann', nameZh: '' }, photo: null });
    expect(wizard.rules.parse('x')).toBeNull();
    expect(wizard.rules.keep({ ...wizard.get().draft, agreed: true })).toBe(true);
    expect(wizard.rules.hasInput({ ...wizard.get().draft, agreed: true })).toBe(false);
  });
});
