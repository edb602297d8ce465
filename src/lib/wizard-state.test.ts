import { describe, expect, it } from 'vitest';
import type { Work } from '@domain/works';
import { createWizard, createWorksList, issuesOnForm, stillShown, type WizardRules } from './wizard-state';

type Draft = { name: string; agreed: boolean; selected: number[] };

const rules: WizardRules<Draft> = {
  steps: ['start', 'form', 'review'],
  empty: () => ({ name: '', agreed: false, selected: [] }),
  parse: (raw) => (raw && typeof raw === 'object' ? (raw as Draft) : null),
  keep: (d) => d.name !== '' || d.agreed,
  hasInput: (d) => d.name !== '',
  errorsAt: (d, step): Record<string, string> =>
    step === 1 && d.name.length < 2 ? { name: d.name ? 'too short' : 'required' } : {},
  problemAt: (d, step) => (step === 0 && !d.agreed ? 'tick the box' : undefined),
  refuse: (before, after) => (after.selected.length > 2 ? `not ${after.selected.at(-1)}` : undefined),
  reachable: (d) => (!d.agreed ? 0 : d.name.length < 2 ? 1 : 2),
};

const work = (id: number): Work => ({
  id,
  genreId: 'project',
  categoryId: 1,
  languageEn: { title: `W${id}` },
  languageZhTw: { title: `作品${id}` },
  name: `W${id}`,
  priceTwd: { cents: 0, currency: 'TWD' },
  priceUsd: { cents: 0, currency: 'USD' },
});

describe('the wizard skeleton (lib/wizard-state)', () => {
  it('opens the step asked for until the draft is read, then only steps the draft reaches', () => {
    const wizard = createWizard(rules, { step: 2 });
    expect(wizard.get().step).toBe(2);
    expect(wizard.restore(null)).toBe(0);
    expect(wizard.open(2)).toBe(0);
    wizard.edit((d) => ({ ...d, agreed: true }));
    expect(wizard.open(2)).toBe(1);
    wizard.edit((d) => ({ ...d, name: 'Ann' }));
    expect(wizard.open(2)).toBe(2);
    expect(wizard.open(9)).toBe(2);
  });

  it('restores a stored draft and keeps the step it reaches', () => {
    const wizard = createWizard(rules, { step: 2 });
    expect(wizard.restore({ name: 'Ann', agreed: true, selected: [] })).toBe(2);
    expect(wizard.get()).toMatchObject({ restored: true, draft: { name: 'Ann' } });
  });

  it("shows a step's errors and problem on a check; each goes once fixed and none is added before the next check", () => {
    const wizard = createWizard(rules);
    expect(wizard.check(0)).toBe(false);
    expect(wizard.get().problem).toBe('tick the box');
    wizard.edit((d) => ({ ...d, agreed: true }));
    expect(wizard.get().problem).toBeUndefined();
    expect(wizard.check(0)).toBe(true);

    wizard.open(1);
    wizard.edit((d) => ({ ...d, name: 'A' }));
    expect(wizard.get().errors).toEqual({}); // not before the check
    expect(wizard.check()).toBe(false);
    expect(wizard.get().errors).toEqual({ name: 'too short' });
    wizard.edit((d) => ({ ...d, name: '' }));
    expect(wizard.get().errors).toEqual({ name: 'required' }); // still failing: its current message
    wizard.edit((d) => ({ ...d, name: 'Ann' }));
    expect(wizard.get().errors).toEqual({});
  });

  it('refuses an edit that breaks a rule at once, with the reason, and the next edit clears it', () => {
    const wizard = createWizard(rules);
    wizard.edit((d) => ({ ...d, selected: [1, 2] }));
    wizard.edit((d) => ({ ...d, selected: [1, 2, 3] }));
    expect(wizard.get().draft.selected).toEqual([1, 2]);
    expect(wizard.get().problem).toBe('not 3');
    wizard.edit((d) => ({ ...d, selected: [1] }));
    expect(wizard.get().problem).toBeUndefined();
  });

  it('keeps busy and submitted apart from the draft', () => {
    const wizard = createWizard(rules);
    wizard.setBusy(true);
    wizard.setSubmitted(true);
    expect(wizard.get()).toMatchObject({ busy: true, submitted: true, draft: rules.empty() });
  });

  it('drops a selected work that the content site no longer lists', () => {
    const wizard = createWizard(rules);
    const works = createWorksList(wizard);
    wizard.edit((d) => ({ ...d, selected: [1, 2] }));
    works.loaded([work(2), work(3)]);
    expect(wizard.get().draft.selected).toEqual([2]);
    expect(works.$works.get()?.map((w) => w.id)).toEqual([2, 3]);
    works.reset();
    expect(works.$works.get()).toBeNull();
  });

  it('places the API validation issues on the works step or the form', () => {
    const form = {
      worksStep: /^selectedContents/,
      fields: new Set(['name', 'receipt']),
      known: { name: 'required' },
      invalid: 'invalid',
    };
    expect(issuesOnForm(['selectedContents.0', 'name'], form)).toEqual({ at: 'works' });
    expect(issuesOnForm(['name', 'receipt.unifiedBusinessNumber', 'other'], form)).toEqual({
      at: 'form',
      errors: { name: 'required', 'receipt.unifiedBusinessNumber': 'invalid' },
    });
    expect(issuesOnForm(['other'], form)).toBeNull();
  });

  it('stillShown keeps the same object when nothing changed', () => {
    const shown = { a: 'x' };
    expect(stillShown(shown, { a: 'x', b: 'y' })).toBe(shown);
    expect(stillShown(shown, {})).toEqual({});
  });
});
