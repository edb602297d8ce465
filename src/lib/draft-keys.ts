/**
 * Where form drafts live in the browser: sessionStorage keys under one prefix, per user and per
 * form (`draft:amy@example.com:badge-professional`). No dependencies, so the header's small
 * script can clear them on log out without loading the store.
 */
export const DRAFT_PREFIX = 'draft:';

/** The storage key of one user's draft of one form (an event slug, a link, an order). */
export const draftKey = (user: string, scope: string) => `${DRAFT_PREFIX}${user.trim().toLowerCase()}:${scope}`;

/** The tab's session storage, or null where there is none (SSR, storage disabled). */
export function draftStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Removes every stored draft of this tab (log out, or a page seen signed out). */
export function removeStoredDrafts(): void {
  const storage = draftStorage();
  if (!storage) return;
  for (const key of Object.keys(storage)) if (key.startsWith(DRAFT_PREFIX)) storage.removeItem(key);
}
