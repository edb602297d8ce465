import { describe, expect, it } from 'vitest';
import { wordsOf } from '@i18n/catalogues';
import type { T } from '@i18n/t';
import { createMarketWizard, FORM, IDENTITY, marketStepNames, REVIEW, UPLOAD, WORKS } from './market-wizard.store';

const t = wordsOf('en', 'pages', 'enumerations') as T;
const zh = wordsOf('zh-TW', 'pages', 'enumerations') as T;

function market(options: { review?: boolean; offered?: number[]; signedIn?: boolean; initialStep?: number } = {}) {
  const wizard = createMarketWizard({
    t,
    offered: options.offered ?? [1, 2],
    review: options.review ?? false,
    signedIn: options.signedIn ?? true,
    initialStep: options.initialStep,
  });
  wizard.restore(null);
  return wizard;
}

/** A form the ExhibitorForm struct takes. */
function fillForm(wizard: ReturnType<typeof market>) {
  wizard.editForm((f) => ({
    ...f,
    companyNameZh: '港灣影業',
    companyNameEn: 'Harbour Films',
    companyIndustry: '1',
    companyBusinessCategory: [1],
    companyCountry: 'TWN',
    copyrightContacts: f.copyrightContacts.map((c) => ({
      ...c,
      nameZh: '王小明',
      nameEn: 'Wang',
      phone: '+886-2-1234-5678',
      email: 'wang@example.com',
    })),
    contactName: 'Wang',
    contactTitle: 'Producer',
    contactPhone: '+886-2-1234-5678',
    contactEmail: 'wang@example.com',
  }));
}

describe('the Market wizard store', () => {
  it('has a review step only when the organiser approves first', () => {
    expect(marketStepNames(false)).toEqual(['upload', 'identity', 'works', 'form']);
    expect(marketStepNames(true)).toEqual(['upload', 'identity', 'works', 'form', 'review']);
    expect(market().rules.steps).toHaveLength(4);
  });

  it('chooses the only participation type offered for the user', () => {
    expect(market({ offered: [3] }).get().draft.identity).toBe(3);
    expect(market().get().draft.identity).toBeNull();
  });

  it('opens a later step only once the earlier ones are done', () => {
    const wizard = createMarketWizard({ t, offered: [1, 2], review: true, signedIn: true, initialStep: REVIEW });
    expect(wizard.restore(null)).toBe(IDENTITY);
    wizard.chooseIdentity(2);
    wizard.agree('agreeTerms', true);
    expect(wizard.open(REVIEW)).toBe(IDENTITY);
    wizard.agree('agreeDisclosure', true);
    expect(wizard.open(REVIEW)).toBe(WORKS);
    wizard.select([5]);
    expect(wizard.open(REVIEW)).toBe(FORM);
    fillForm(wizard);
    expect(wizard.open(REVIEW)).toBe(REVIEW);
    expect(wizard.open(UPLOAD)).toBe(UPLOAD);
  });

  it('asks a visitor to sign in before the form', () => {
    const wizard = market({ signedIn: false });
    wizard.chooseIdentity(1);
    wizard.agree('agreeTerms', true);
    wizard.agree('agreeDisclosure', true);
    wizard.select([5]);
    expect(wizard.open(FORM)).toBe(WORKS);
  });

  it('asks for a work on Continue, and the message goes with the first tick (both languages)', () => {
    const wizard = market();
    expect(wizard.check(WORKS)).toBe(false);
    expect(wizard.get().problem).toBe('Please choose at least one work');
    wizard.select([5]);
    expect(wizard.get().problem).toBeUndefined();
    const other = createMarketWizard({ t: zh, offered: [1], review: false, signedIn: true });
    other.check(WORKS);
    expect(other.get().problem).toBe(zh('market.works.required'));
    expect(other.get().problem).not.toBe(t('market.works.required'));
  });

  it('checks the exhibitor form and drops each error once its field is valid', () => {
    const wizard = market();
    expect(wizard.check(FORM)).toBe(false);
    expect(wizard.get().errors.companyNameEn).toBe('This field is required');
    expect(wizard.get().errors.companyIndustry).toBe('This field is required');
    wizard.editForm((f) => ({ ...f, companyNameEn: 'Harbour Films' }));
    expect(wizard.get().errors.companyNameEn).toBeUndefined();
    expect(wizard.get().errors.companyIndustry).toBe('This field is required');
    fillForm(wizard);
    expect(wizard.get().errors).toEqual({});
  });

  it('sends back to the step still missing something before the submit', () => {
    const wizard = market();
    expect(wizard.submission()).toEqual({ to: IDENTITY });
    wizard.chooseIdentity(1);
    wizard.agree('agreeTerms', true);
    wizard.agree('agreeDisclosure', true);
    expect(wizard.submission()).toEqual({ to: WORKS });
    wizard.select([5, 6]);
    expect(wizard.submission()).toEqual({ to: FORM });
    expect(Object.keys(wizard.get().errors).length).toBeGreaterThan(0);
    fillForm(wizard);
    const sent = wizard.submission();
    expect(sent).toMatchObject({
      body: { marketIdentity: 1, selectedContents: [5, 6], agreeTerms: true, companyNameEn: 'Harbour Films' },
    });
  });

  it('places the API issues on the works step or the form', () => {
    const wizard = market();
    expect(wizard.fieldIssues(['selectedContents'])).toBe(WORKS);
    expect(wizard.get().problem).toBe('Please choose at least one work');
    expect(wizard.fieldIssues(['copyrightContacts.0.email'])).toBe(FORM);
    expect(wizard.get().errors['copyrightContacts.0.email']).toBe('This field is required');
    expect(wizard.fieldIssues(['somethingElse'])).toBeNull();
  });
});
