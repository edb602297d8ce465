/**
 * A registration kind's words in the reader's language: the kinds declare i18n keys (step labels,
 * notes, confirmation messages), which the kinds' completeness test checks in both catalogues.
 */
import type { MessageKey, Translate } from '@i18n/i18n';
import type { RegistrationKind } from '@domain/kinds';

/** One of a kind's i18n keys, translated. */
export const kindText = (t: Translate, key: string) => t(key as MessageKey);

/** The labels of a kind's wizard steps. */
export const stepLabels = (t: Translate, kind: Pick<RegistrationKind, 'steps' | 'wizard'>) =>
  kind.steps.map((step) => kindText(t, kind.wizard.stepLabels[step] ?? step));
