/**
 * Client of the content site's protocol (decision 016): `GET {base}/api/works[?ids=1,2]` with the
 * user's identity token as `Authorization: Bearer` and the portal's client credentials
 * (`X-Client-Id`, `X-Client-Secret`); the answer is `{ data: [{ id, genre, category_id, title_en,
 * title_zh, price_cents_twd, price_cents_usd }] }`, validated before use. The real content site
 * (CONTENT_SITE_URL) and the embedded dev content site (in-process fetch) are reached alike.
 */
import { array, integer, min, max, enums, size, string, type as shape, validate } from 'superstruct';
import { DomainError } from '@domain/errors';
import { WORK_GENRES } from '@domain/works';
import type { ContentSource, ContentUser, WorkRecord } from './works';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export type HttpContentSourceOptions = {
  /** Base URL of the content site (`https://content.example.org`, `http://embedded.invalid/dev-content`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Timeout of one attempt; default 5 s. */
  timeoutMs?: number;
  /** Further attempts after a timeout, a network error or 408/429/5xx; default 2. */
  retries?: number;
  /** Wait before retry n: n × this; default 200 ms. */
  retryDelayMs?: number;
  fetch?: FetchLike;
  log?: (level: 'warn', message: string, data?: Record<string, unknown>) => void;
};

const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** The most ids one call asks for (a Market order takes at most 20 works). */
const MAX_IDS = 100;

const WireWork = shape({
  id: min(integer(), 1),
  genre: enums(WORK_GENRES),
  category_id: max(min(integer(), 1), 16),
  title_en: size(string(), 1, 1024),
  title_zh: size(string(), 1, 1024),
  price_cents_twd: min(integer(), 0),
  price_cents_usd: min(integer(), 0),
});
const WireAnswer = shape({ data: size(array(WireWork), 0, 10_000) });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createHttpContentSource(options: HttpContentSourceOptions): ContentSource {
  const base = options.baseUrl.replace(/\/$/, '');
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 5_000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const log = options.log ?? ((level, message, data) => console[level](JSON.stringify({ level, message, ...data })));

  async function works(user: ContentUser, ids?: number[]): Promise<WorkRecord[]> {
    const url = `${base}/api/works${ids ? `?ids=${ids.join(',')}` : ''}`;
    let problem = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs * attempt);
      let body: unknown;
      try {
        const res = await doFetch(url, {
          method: 'GET',
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${user.token}`,
            'x-client-id': options.clientId,
            'x-client-secret': options.clientSecret,
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) {
          problem = `HTTP ${res.status}`;
          await res.body?.cancel().catch(() => {});
          if (RETRY_STATUS.has(res.status)) continue;
          break;
        }
        try {
          body = await res.json();
        } catch (error) {
          if ((error as Error).name === 'TimeoutError') throw error;
          problem = 'answer is not JSON';
          break;
        }
      } catch (error) {
        // A timeout (TimeoutError) or a network error: worth another attempt.
        problem = (error as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : String(error);
        continue;
      }
      const [invalid, answer] = validate(body, WireAnswer);
      if (invalid) {
        problem = `unexpected answer: ${invalid.path.join('.') || 'body'} — ${invalid.message}`;
        break;
      }
      const wanted = ids ? new Set(ids) : null;
      return answer.data
        .filter((w) => !wanted || wanted.has(w.id))
        .map((w) => ({
          id: w.id,
          genre: w.genre,
          categoryId: w.category_id,
          titleEn: w.title_en,
          titleZh: w.title_zh,
          priceCentsTwd: w.price_cents_twd,
          priceCentsUsd: w.price_cents_usd,
        }));
    }
    // The URL may name an internal host: logged, never answered.
    log('warn', 'content site unavailable', { url, problem });
    throw new DomainError('content_site_unavailable');
  }

  return {
    listWorks: (user) => works(user),
    async getWorks(user, ids) {
      const unique = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
      if (unique.length === 0) return [];
      const out: WorkRecord[] = [];
      for (let i = 0; i < unique.length; i += MAX_IDS) out.push(...(await works(user, unique.slice(i, i + MAX_IDS))));
      return out;
    },
  };
}
