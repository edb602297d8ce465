import { vi } from 'vitest';

/*
 * A fetch for the client's tests (test-only): answers from a list, one per call, and the calls it
 * got (URL, method, headers, body parsed when it is JSON text).
 */

export type FakeCall = { url: string; method: string; headers: Headers; body: unknown };

export function fakeFetch(answers: (() => Response)[]) {
  const calls: FakeCall[] = [];
  const fn = vi.fn(async (input: string | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input.url;
    const raw = init?.body;
    calls.push({
      url,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof raw === 'string' ? JSON.parse(raw) : raw,
    });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  });
  return { fn, calls };
}

/** An answer with a JSON body. */
export const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
