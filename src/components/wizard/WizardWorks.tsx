import { lazy } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import type { WorksPickerProps } from '@components/works/WorksPicker';
import type { Work } from '@domain/works';

/* The works picker loads when its step opens (decision 006: the first steps stay light). */
const WorksPicker = lazy(() => import('@components/works/WorksPicker').then((m) => ({ default: m.WorksPicker })));

/** What the wizard's page gives every works step: the user and where works are added. */
export type WorksPage = { locale: string; signedIn: boolean; signInHref: string; uploadHref: string };

/**
 * The works step's list (Market, pitching): the picker over the wizard's store (its works list and
 * the draft's selection), with the page's sign-in and content-site links.
 */
export function WizardWorks(
  props: {
    page: WorksPage;
    /** Shown while the picker loads. */
    loading: string;
    works: Work[] | null;
    /** The wizard store's works list (lib/wizard-state createWorksList). */
    list: { loaded: (works: Work[]) => void };
  } & Pick<WorksPickerProps, 't' | 'selected' | 'onChange' | 'error' | 'single' | 'unavailable' | 'prices'>,
) {
  const { page, loading, list, ...picker } = props;
  return (
    <ClientSuspense fallback={<p className="text-sm">{loading}</p>}>
      <WorksPicker
        {...picker}
        locale={page.locale}
        signedIn={page.signedIn}
        signInHref={page.signInHref}
        uploadHref={page.uploadHref}
        onWorks={list.loaded}
      />
    </ClientSuspense>
  );
}
