import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { createApiClient } from './api/client';
import { load } from './load';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('page loaders (spec §8)', () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  afterEach(() => logged.mockClear());
  const lastLog = () => JSON.parse(String(logged.mock.calls.at(-1)?.[0])) as Record<string, unknown>;

  it('sort 401 and 404 for the page to handle', async () => {
    const api = (status: number) =>
      createApiClient({ baseURL: 'http://api.internal', fetch: async () => json(status, { code: 'x', message: 'm' }) });
    expect(await load(() => api(401).get('/x'))).toEqual({ kind: 'unauthorized' });
    expect(await load(() => api(404).get('/x'))).toEqual({ kind: 'not_found' });
    expect(logged).not.toHaveBeenCalled();
  });

  it("answer the API's own 5xx with its standard phrase only, and log the API's text", async () => {
    const api = createApiClient({
      baseURL: 'http://api.internal:8080',
      fetch: async () => json(500, { code: 'internal_error', message: 'relation "orders" does not exist' }),
    });
    const result = await load(() => api.get('/api/v1/orders'));
    expect(result).toEqual({ kind: 'error', status: 500, statusText: 'Internal Server Error' });
    expect(lastLog()).toMatchObject({ level: 'error', status: 500, error: 'relation "orders" does not exist' });
  });

  it('answer 502 when the API cannot be reached, keeping its address in the log only', async () => {
    const api = createApiClient({
      baseURL: 'http://api.internal:8080',
      fetch: async () => {
        throw new TypeError('fetch failed: connect ECONNREFUSED 10.0.0.7:8080');
      },
    });
    const result = await load(() => api.get('/api/v1/orders'));
    expect(result).toEqual({ kind: 'error', status: 502, statusText: 'Bad Gateway' });
    expect(JSON.stringify(result)).not.toMatch(/api\.internal|10\.0\.0\.7|ECONNREFUSED/);
    expect(String(lastLog().detail)).toContain('http://api.internal:8080/api/v1/orders');
  });

  it('answer 504 when the API timed out, and 502 for an answer the page cannot use', async () => {
    const timedOut = await load(() =>
      Promise.reject(new ApiError(0, 'timeout', 'The request timed out', {}, '', '[GET] "http://api.internal/x"')),
    );
    expect(timedOut).toEqual({ kind: 'error', status: 504, statusText: 'Gateway Timeout' });
    const teapot = await load(() => Promise.reject(new ApiError(418, 'http_418', 'HTTP 418', {})));
    expect(teapot).toEqual({ kind: 'error', status: 502, statusText: 'Bad Gateway' });
    const unavailable = await load(() => Promise.reject(new ApiError(503, 'busy', 'Database is down', {})));
    expect(unavailable).toEqual({ kind: 'error', status: 503, statusText: 'Service Unavailable' });
  });

  it('let errors that are not the API’s through', async () => {
    await expect(load(() => Promise.reject(new RangeError('bug')))).rejects.toThrow('bug');
  });
});
