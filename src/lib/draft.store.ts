import { map } from 'nanostores';
import { displayIdentity } from './auth';
import { $token } from './auth.store';
import { DRAFT_PREFIX, draftStorage, removeStoredDrafts } from './draft-keys';

export { draftKey } from './draft-keys';

/*
 * Form drafts (DESIGN D9: client state shared across page loads). A wizard keeps what the user
 * typed, per user and per form, so a language switch, a reload or the browser's Back and Forward
 * never lose it. The drafts live in sessionStorage, not localStorage: they hold personal data
 * (names, phone numbers) and end with the tab. @nanostores/persistent is not used here because
 * its storage engine is global and the identity token ($token) must stay in localStorage.
 */

type Drafts = Record<string, unknown>;

function readAll(): Drafts {
  const storage = draftStorage();
  const out: Drafts = {};
  if (!storage) return out;
  for (const key of Object.keys(storage)) {
    if (!key.startsWith(DRAFT_PREFIX)) continue;
    try {
      out[key] = JSON.parse(storage.getItem(key) ?? 'null') as unknown;
    } catch {
      storage.removeItem(key);
    }
  }
  return out;
}

/** Every draft of this tab, by storage key (see `draftKey`). */
export const $drafts = map<Drafts>(readAll());

/** The stored draft under a key, read fresh from storage (a page restored from the back-forward cache). */
export function readDraft(key: string): unknown {
  const storage = draftStorage();
  const raw = storage?.getItem(key);
  if (raw == null) return $drafts.get()[key];
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Keeps a draft (in the store and in sessionStorage; a full or disabled storage keeps it in memory). */
export function saveDraft(key: string, value: unknown): void {
  $drafts.setKey(key, value);
  try {
    draftStorage()?.setItem(key, JSON.stringify(value));
  } catch {
    /* quota exceeded or storage disabled: the in-memory draft still serves this page */
  }
}

/** Forgets one draft (after a successful submit). */
export function clearDraft(key: string): void {
  $drafts.setKey(key, undefined);
  draftStorage()?.removeItem(key);
}

/** Forgets every draft of this tab (log out). */
export function clearDrafts(): void {
  $drafts.set({});
  removeStoredDrafts();
}

/**
 * The signed-in user's e-mail as the browser knows it (agency mode: the stored token, or the
 * cookie on the first page after sign-in; OIDC mode, whose session cookie no script reads: the
 * header the server rendered, `data-signed-in`), for draft keys of islands that are not told who
 * is signed in; '' if none.
 */
export function draftUser(): string {
  const doc = typeof document === 'undefined' ? undefined : document;
  const cookie = /(?:^|; )idc-token=([^;]*)/.exec(doc?.cookie ?? '')?.[1];
  const fromToken = displayIdentity($token.get() || (cookie ? decodeURIComponent(cookie) : null))?.email;
  return fromToken ?? doc?.querySelector('header[data-signed-in]')?.getAttribute('data-signed-in') ?? '';
}
