import { createWizard } from '@lib/wizard-state';

/*
 * The event registration wizard's state (spec §2: confirm → completed or wait for approval): one
 * step, the terms ticked or not, on the one wizard skeleton. Nothing is kept in the tab (a tick
 * alone is not work to lose).
 */

export const EVENT_STEPS = ['confirm'] as const;

export type EventDraft = { agreed: boolean };

export function createEventWizard() {
  const wizard = createWizard<EventDraft>({
    steps: EVENT_STEPS,
    empty: () => ({ agreed: false }),
    parse: () => null,
    keep: () => false,
    hasInput: () => false,
  });
  return {
    ...wizard,
    agree: (agreed: boolean) => wizard.edit((d) => ({ ...d, agreed })),
    /** Register is offered once the terms are ticked and no submit is on its way. */
    canSubmit: () => wizard.get().draft.agreed && !wizard.get().busy,
  };
}
