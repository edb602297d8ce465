import { describe, expect, it } from 'vitest';
import { createEventWizard } from './event-wizard.store';

describe('the event registration wizard store', () => {
  it('offers Register once the terms are ticked, and not while a submit is on its way', () => {
    const wizard = createEventWizard();
    wizard.restore(null);
    expect(wizard.canSubmit()).toBe(false);
    wizard.agree(true);
    expect(wizard.canSubmit()).toBe(true);
    wizard.setBusy(true);
    expect(wizard.canSubmit()).toBe(false);
  });

  it('keeps nothing in the tab and never asks before leaving', () => {
    const wizard = createEventWizard();
    wizard.agree(true);
    expect(wizard.rules.keep(wizard.get().draft)).toBe(false);
    expect(wizard.rules.hasInput(wizard.get().draft)).toBe(false);
    expect(wizard.rules.steps).toEqual(['confirm']);
  });
});
