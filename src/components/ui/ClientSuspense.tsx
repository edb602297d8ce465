import { Suspense, useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => {};

/**
 * A Suspense boundary for lazy parts of an island that renders only in the browser: the server
 * and the hydrating render show `fallback`, then the lazy part loads. Server-rendering a lazy
 * part would make React stream it as a hidden copy plus an inline script that our CSP refuses,
 * leaving a second, hidden form with the same ids in the page.
 */
export function ClientSuspense({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return inBrowser ? <Suspense fallback={fallback}>{children}</Suspense> : <>{fallback}</>;
}
