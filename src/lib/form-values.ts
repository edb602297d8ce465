import type { Struct } from 'superstruct';
import type { T } from '@i18n/t';
import type { UploadedFile } from '@domain/contract';
import { fieldErrors } from './form-errors';

/*
 * Helpers of the forms the browser holds as drafts (exhibitor form, story form): list-item keys,
 * uploaded files read back from storage, translated errors by field path, API issue paths.
 */

/** An uploaded file as the uploader gives it (spec §3 Uploaded file: uid, name, url). */
export type { UploadedFile };

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const KEY = /^[A-Za-z0-9_-]{21}$/;

/** A random 21-character list-item key (spec §9), like nanoid, without the dependency. */
export function newItemKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(21));
  return Array.from(bytes, (b) => KEY_ALPHABET[b & 63]).join('');
}

/** A stored item's key when it is a valid one, else a fresh one. */
export const itemKey = (raw: unknown) => (typeof raw === 'string' && KEY.test(raw) ? raw : newItemKey());

export const text = (v: unknown) => (typeof v === 'string' ? v : '');
export const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' ? (v as Record<string, unknown>) : {};

/** A file as the uploader or a stored registration gives it, checked (it may come from storage). */
export function parseUploaded(raw: unknown): UploadedFile | null {
  const f = record(raw);
  return typeof f.uid === 'string' && typeof f.name === 'string' && typeof f.url === 'string'
    ? { uid: f.uid, name: f.name, url: f.url }
    : null;
}

/** Paths whose unchosen value is "required", not "invalid" (selects with a "please choose" option). */
const CHOICES = new Set(['companyIndustry', 'companyCountry', 'storyGenreId']);

/** Error messages by field path (`copyrightContacts.1.email`) of a value against a struct. */
export function errorMessages<S, U>(t: T, value: unknown, struct: Struct<S, U>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, e] of Object.entries(fieldErrors(value, struct))) {
    const unchosen = CHOICES.has(path) && e.key === 'form.invalid' ? 'form.required' : null;
    out[path] = t(unchosen ?? e.key, e.values);
  }
  return out;
}

/** A path of the API's validation issues (`copyright_contacts.0.email`) in camelCase. */
export const camelPath = (path: string) =>
  path
    .split('.')
    .map((p) => p.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()))
    .join('.');

/** The field paths of an API error's `issues`, in camelCase. */
export function issuePaths(data: Record<string, unknown>): string[] {
  const issues = Array.isArray(data.issues) ? data.issues.map(record) : [];
  return issues.map((i) => (typeof i.path === 'string' ? camelPath(i.path) : '')).filter(Boolean);
}
