import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stepFromSearch } from './wizard';

/** A sessionStorage stand-in (the tests run in Node, without a DOM). */
class MemoryStorage {
  private data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, String(value));
    Object.defineProperty(this, key, { value, enumerable: true, configurable: true });
  }
  removeItem(key: string) {
    this.data.delete(key);
    delete (this as Record<string, unknown>)[key];
  }
}

describe('form drafts', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('sessionStorage', storage);
    vi.resetModules();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps a draft per user and form in sessionStorage, and reads it back after a page load', async () => {
    const { draftKey, saveDraft, readDraft } = await import('./draft.store');
    const amy = draftKey(' Amy@Example.com ', 'badge-professional');
    expect(amy).toBe('draft:amy@example.com:badge-professional');
    saveDraft(amy, { applicant: { nameEn: 'Amy' } });
    saveDraft(draftKey('bob@example.com', 'badge-professional'), { applicant: { nameEn: 'Bob' } });
    expect(JSON.parse(storage.getItem(amy)!)).toEqual({ applicant: { nameEn: 'Amy' } });

    // A new page: the store starts from what the tab kept.
    vi.resetModules();
    const again = await import('./draft.store');
    expect(again.$drafts.get()[amy]).toEqual({ applicant: { nameEn: 'Amy' } });
    expect(again.readDraft(amy)).toEqual({ applicant: { nameEn: 'Amy' } });
    expect(readDraft(draftKey('carol@example.com', 'badge-professional'))).toBeUndefined();
  });

  it('forgets one draft after a submit, and every draft on log out; other keys stay', async () => {
    const { draftKey, saveDraft, clearDraft, clearDrafts, readDraft } = await import('./draft.store');
    storage.setItem('locale', 'en');
    const a = draftKey('amy@example.com', 'badge-professional');
    const b = draftKey('amy@example.com', 'order-1-pay');
    saveDraft(a, { x: 1 });
    saveDraft(b, { y: 2 });
    clearDraft(a);
    expect(readDraft(a)).toBeUndefined();
    expect(readDraft(b)).toEqual({ y: 2 });
    clearDrafts();
    expect(readDraft(b)).toBeUndefined();
    expect(storage.getItem(b)).toBeNull();
    expect(storage.getItem('locale')).toBe('en');
  });

  it('drops a stored draft that is not JSON instead of failing', async () => {
    storage.setItem('draft:amy@example.com:badge-professional', '{not json');
    const { $drafts } = await import('./draft.store');
    expect($drafts.get()).toEqual({});
    expect(storage.getItem('draft:amy@example.com:badge-professional')).toBeNull();
  });
});

describe('wizard step in the URL', () => {
  const steps = ['identity', 'form'] as const;
  it('reads the named step, and the first step for anything else', () => {
    expect(stepFromSearch('?step=form', steps)).toBe(1);
    expect(stepFromSearch('?locale=en&step=form', steps)).toBe(1);
    expect(stepFromSearch('', steps)).toBe(0);
    expect(stepFromSearch('?step=identity', steps)).toBe(0);
    expect(stepFromSearch('?step=pay', steps)).toBe(0);
    expect(stepFromSearch('?step=', steps)).toBe(0);
  });
});
