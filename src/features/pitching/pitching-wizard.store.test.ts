import { describe, expect, it } from 'vitest';
import type { Work, WorkGenre } from '@domain/works';
import { wordsOf } from '@i18n/catalogues';
import type { T } from '@i18n/t';
import { createPitchingWizard, FORM, WORKS } from './pitching-wizard.store';

const words = (locale: 'en' | 'zh-TW') => wordsOf(locale, 'pages', 'enumerations') as T;

const work = (id: number, genreId: WorkGenre, title = `Work ${id}`): Work => ({
  id,
  genreId,
  categoryId: 1,
  languageEn: { title },
  languageZhTw: { title },
  name: title,
  priceTwd: { cents: 500_000, currency: 'TWD' },
  priceUsd: { cents: 20_000, currency: 'USD' },
});

const projects = [1, 2, 3, 4, 5, 6].map((id) => work(id, 'project'));

function project(locale: 'en' | 'zh-TW' = 'en', story = false) {
  const wizard = createPitchingWizard({ t: words(locale), story, signedIn: true, worksPerEntry: story ? 1 : null });
  wizard.restore(null);
  wizard.works.loaded([...projects, work(7, 'piece', 'Salt Field')]);
  return wizard;
}

describe('the pitching wizard store', () => {
  it('refuses a 6th work at the tick, with the reason (defect 8, both languages)', () => {
    for (const [locale, reason] of [
      ['en', '“Work 6” was not ticked: you can enter at most 5 works now (the limit is 5 works per applicant).'],
      ['zh-TW', '「Work 6」未勾選：您目前最多還可以報名 5 件作品（每個報名單位最多 5 件）。'],
    ] as const) {
      const wizard = project(locale);
      wizard.select([1, 2, 3, 4, 5]);
      expect(wizard.get().problem).toBeUndefined();
      wizard.select([1, 2, 3, 4, 5, 6]);
      expect(wizard.get().draft.selected).toEqual([1, 2, 3, 4, 5]);
      expect(wizard.get().problem).toBe(reason);
      wizard.select([1, 2, 3, 4]);
      expect(wizard.get().problem).toBeUndefined();
    }
  });

  it('counts the works already entered elsewhere in the limit', () => {
    const wizard = project();
    wizard.$usage.set({ worksUsed: 4, worksLimit: 5, usedContentIds: ['9', '10', '11', '12'] });
    expect(wizard.left()).toBe(1);
    wizard.select([1]);
    wizard.select([1, 2]);
    expect(wizard.get().draft.selected).toEqual([1]);
    expect(wizard.get().problem).toMatch(/at most 1 works now/);
  });

  it('refuses a piece beside a project at the tick (defect 8, both languages)', () => {
    for (const [locale, reason] of [
      [
        'en',
        '“Salt Field” was not ticked: projects and pieces cannot be entered together. Untick the others first to enter it.',
      ],
      ['zh-TW', '「Salt Field」未勾選：企劃與完成作品不可同時報名。若要報名此作品，請先取消其他勾選。'],
    ] as const) {
      const wizard = project(locale);
      wizard.select([1]);
      wizard.select([1, 7]);
      expect(wizard.get().draft.selected).toEqual([1]);
      expect(wizard.get().problem).toBe(reason);
      // Unticking leaves the piece free to tick.
      wizard.select([]);
      wizard.select([7]);
      expect(wizard.get().draft.selected).toEqual([7]);
      expect(wizard.get().problem).toBeUndefined();
    }
  });

  it('checks the works step on Continue: both boxes, then a work', () => {
    const wizard = project();
    wizard.select([1]);
    expect(wizard.check(WORKS)).toBe(false);
    expect(wizard.get().problem).toBe('Please tick both the policy and the terms checkboxes');
    wizard.agree('agreePolicy', true);
    expect(wizard.get().problem).toBe('Please tick both the policy and the terms checkboxes');
    wizard.agree('agreeTerms', true);
    expect(wizard.get().problem).toBeUndefined();
    wizard.select([]);
    expect(wizard.check(WORKS)).toBe(false);
    expect(wizard.get().problem).toBe('Please choose at least one work');
    wizard.select([2]);
    expect(wizard.check(WORKS)).toBe(true);
  });

  it('opens the form step only once the works step is done', () => {
    const wizard = createPitchingWizard({
      t: words('en'),
      story: false,
      signedIn: true,
      worksPerEntry: null,
      initialStep: FORM,
    });
    expect(wizard.restore(null)).toBe(WORKS);
    wizard.agree('agreePolicy', true);
    wizard.agree('agreeTerms', true);
    wizard.select([1]);
    expect(wizard.open(FORM)).toBe(FORM);
    const visitor = createPitchingWizard({ t: words('en'), story: false, signedIn: false, worksPerEntry: null });
    visitor.restore({ ...wizard.get().draft });
    expect(visitor.open(FORM)).toBe(WORKS);
  });

  it('checks the invoice on the form step and clears an error once fixed', () => {
    const wizard = project();
    wizard.agree('agreePolicy', true);
    wizard.agree('agreeTerms', true);
    wizard.select([1, 2]);
    wizard.open(FORM);
    wizard.editInvoice({ kind: 'company', title: '', ubn: '' });
    expect(wizard.check(FORM)).toBe(false);
    expect(Object.keys(wizard.get().errors).sort()).toEqual(['receipt.invoiceTitle', 'receipt.unifiedBusinessNumber']);
    wizard.editInvoice({ kind: 'company', title: 'Harbour Films', ubn: '' });
    expect(Object.keys(wizard.get().errors)).toEqual(['receipt.unifiedBusinessNumber']);
    wizard.editInvoice({ kind: 'company', title: 'Harbour Films', ubn: '04595257' });
    expect(wizard.get().errors).toEqual({});
    expect(wizard.submission()).toEqual({
      body: {
        agreePolicy: true,
        agreeTerms: true,
        selectedContents: [1, 2],
        receipt: {
          kind: 'company',
          invoiceTitle: 'Harbour Films',
          unifiedBusinessNumber: '04595257',
          // A company invoice has no carrier (issue 22): the receipt says so.
          carrierType: 'none',
          carrierNumber: '',
          loveCode: '',
        },
      },
    });
  });

  it('sends the user back to the works step when the entry lost its works (another tab)', () => {
    const wizard = project();
    expect(wizard.submission()).toEqual({ to: 'works' });
    expect(wizard.get().problem).toBe('Please tick both the policy and the terms checkboxes');
  });

  it('checks the story form in the story wizard, and takes one work only', () => {
    const wizard = project('en', true);
    wizard.agree('agreePolicy', true);
    wizard.agree('agreeTerms', true);
    wizard.select([1]);
    expect(wizard.check(FORM)).toBe(false);
    expect(wizard.get().errors.settingZh).toBe('This field is required');
    wizard.select([1, 2]);
    expect(wizard.get().draft.selected).toEqual([1]);
    expect(wizard.get().problem).toBe('Story to Screen takes one work per entry.');
  });

  it('places the API issues: works fields back to the works step, form fields on the form', () => {
    const wizard = project();
    expect(wizard.fieldIssues(['selectedContents'])).toBe(WORKS);
    expect(wizard.get().problem).toBe('Please choose at least one work');
    expect(wizard.fieldIssues(['receipt.unifiedBusinessNumber'])).toBe(FORM);
    expect(wizard.get().errors).toEqual({ 'receipt.unifiedBusinessNumber': 'Please check this field' });
    expect(wizard.fieldIssues(['nothing'])).toBeNull();
  });

  it('keeps a ticked box as a draft but leaving asks only with input', () => {
    const wizard = project();
    wizard.agree('agreeTerms', true);
    expect(wizard.rules.keep(wizard.get().draft)).toBe(true);
    expect(wizard.rules.hasInput(wizard.get().draft)).toBe(false);
    expect(wizard.rules.parse({ selected: [1, 'x', 2.5], invoice: { kind: 'company' } })).toMatchObject({
      selected: [1],
      invoice: { kind: 'company', title: '', ubn: '' },
    });
  });
});
