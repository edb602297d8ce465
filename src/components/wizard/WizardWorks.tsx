import { lazy } from 'react';
import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';
import { ClientSuspense } from '@components/ui/ClientSuspense';
import type { WorksPickerProps } from '@components/works/WorksPicker';
import type { Work } from '@domain/works';

/* The works picker loads when its step opens (decision 006: the first steps stay light). */
const WorksPicker = lazy(() => import('@components/works/WorksPicker').then((m) => ({ default: m.WorksPicker })));

/** What the wizard's page gives every works step: the user and where works are added. */
export type WorksPage = { locale: string; signedIn: boolean; signInHref: string; uploadHref: string };

/** What the works step needs of a wizard's store: the draft's selection, the works list, ticking. */
export type WorksStore = {
  $state: ReadableAtom<{ draft: { selected: number[] } }>;
  works: { $works: ReadableAtom<Work[] | null>; loaded: (works: Work[]) => void };
  select: (ids: number[]) => void;
};

/**
 * The works step's list (Market, pitching): the picker over the wizard's store (its works list and
 * the draft's selection; a tick goes to the store, which may refuse it), with the page's sign-in
 * and content-site links.
 */
export function WizardWorks(
  props: {
    t: WorksPickerProps['t'];
    page: WorksPage;
    /** Shown while the picker loads. */
    loading: string;
    store: WorksStore;
  } & Pick<WorksPickerProps, 'error' | 'single' | 'unavailable' | 'prices'>,
) {
  const { page, loading, store, ...picker } = props;
  const { draft } = useStore(store.$state);
  const works = useStore(store.works.$works);
  return (
    <ClientSuspense fallback={<p className="text-sm">{loading}</p>}>
      <WorksPicker
        {...picker}
        locale={page.locale}
        signedIn={page.signedIn}
        signInHref={page.signInHref}
        uploadHref={page.uploadHref}
        works={works}
        selected={draft.selected}
        onChange={store.select}
        onWorks={store.works.loaded}
      />
    </ClientSuspense>
  );
}
