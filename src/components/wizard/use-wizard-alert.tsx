import { useAlert } from '@components/ui/use-alert';
import type { T } from '@i18n/t';
import { alertText, type ApiError } from '@lib/api';
import { issuePaths } from '@lib/form-values';
import { focusFirstError } from '@lib/wizard';

/** What a wizard says about a refusal code it knows: the alert's text, and what follows its OK. */
export type Refusal = { text: string; then?: () => void };

/**
 * A wizard's in-page alerts, and how it shows the API's refusal of its submit (spec §8): a code
 * the wizard knows with its own text (then what follows the alert), validation issues on the step
 * that has their fields (`issues` answers that step, or null when none is the wizard's: the
 * wizard goes there and focuses the first invalid field), else the API's message.
 */
export function useWizardAlert(t: T, go?: (step: number) => void) {
  const { showAlert, alertElement, preloadAlert } = useAlert(t('dialog.ok'));

  function refused(
    error: ApiError,
    o: {
      known: (code: string) => Refusal | undefined;
      returnFocus: HTMLElement | null;
      issues?: (paths: string[]) => number | null;
    },
  ): void {
    const known = o.known(error.code);
    if (known) return showAlert(known.text, { onClose: known.then, returnFocus: o.returnFocus });
    const at = error.code === 'validation_failed' ? (o.issues?.(issuePaths(error.data)) ?? null) : null;
    if (at === null) return showAlert(alertText(error, t), { returnFocus: o.returnFocus });
    go?.(at);
    focusFirstError();
  }

  return { showAlert, alertElement, preloadAlert, refused };
}
