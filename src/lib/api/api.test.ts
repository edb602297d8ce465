import { describe, expect, it, vi } from 'vitest';
import { createT } from '@i18n/t';
import { pickMessages } from '@i18n/i18n';
import { createApiClient } from './client';
import { alertText, ApiError, apiMessage, TRANSLATED_ALERT_CODES } from './index';
import { fakeFetch, json } from './fetch-fixtures';

describe('API client (spec §7–§8)', () => {
  it('sends the Bearer token, snake_case query and body, and camelizes the answer', async () => {
    const { fn, calls } = fakeFetch([json(200, { order_id: 'o1', payment_status: 'pending' })]);
    const api = createApiClient({ baseURL: 'http://api.test', token: 'tok', fetch: fn });
    const body = await api.post<{ orderId: string; paymentStatus: string }>(
      '/api/v1/orders',
      { contactEmail: 'a@b.c' },
      { registrationType: 'EVENT_GENERAL' },
    );
    expect(body).toEqual({ orderId: 'o1', paymentStatus: 'pending' });
    expect(calls[0]!.url).toBe('http://api.test/api/v1/orders?registration_type=EVENT_GENERAL');
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer tok');
    expect(calls[0]!.body).toEqual({ contact_email: 'a@b.c' });
  });

  it('retries idempotent requests up to twice on retryable statuses', async () => {
    const { fn } = fakeFetch([json(503, {}), json(502, {}), json(200, { data: [] })]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    await expect(api.get('/api/v1/orders')).resolves.toEqual({ data: [] });
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('gives up after two retries', async () => {
    const { fn } = fakeFetch([
      json(500, {}),
      json(500, {}),
      json(500, { code: 'internal_error', message: 'boom', error: 'boom' }),
    ]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 500, code: 'internal_error' });
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('never retries a POST', async () => {
    const { fn } = fakeFetch([json(503, { code: 'busy', message: 'busy', error: 'busy' })]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    await expect(api.post('/x', {})).rejects.toBeInstanceOf(ApiError);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('does not retry a 400 and exposes status, code, message and the parsed body', async () => {
    const { fn } = fakeFetch([
      json(400, { code: 'event_capacity_full', message: 'Event is full', error: 'Event is full', seats_left: 0 }),
    ]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    const error = (await api.get('/x').catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('event_capacity_full');
    expect(error.message).toBe('Event is full');
    expect(error.error).toBe('Event is full');
    expect(error.data).toMatchObject({ seatsLeft: 0 });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('calls onUnauthorized on a 401', async () => {
    const { fn } = fakeFetch([
      json(401, { code: 'unauthorized', message: 'Sign-in required', error: 'Sign-in required' }),
    ]);
    const onUnauthorized = vi.fn();
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn, onUnauthorized });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('times out after the configured time', async () => {
    const fn = vi.fn(
      (_input: string, init?: RequestInit) =>
        new Promise<Response>((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        }),
    );
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn, timeoutMs: 50 });
    const error = (await api.post('/x', {}).catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'timeout', message: 'The request timed out' });
  });

  it('keeps the URL and transport error out of the message (the log reads `detail`)', async () => {
    const refused = vi.fn(async () => {
      throw new TypeError('fetch failed: connect ECONNREFUSED 10.0.0.7:8080');
    });
    const api = createApiClient({ baseURL: 'http://api.internal:8080', fetch: refused });
    const error = (await api.get('/api/v1/orders').catch((e) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, code: 'network_error', message: 'The request failed' });
    expect(error.error).toBe('The request failed');
    expect(error.message).not.toMatch(/api\.internal|10\.0\.0\.7/);
    expect(error.detail).toContain('http://api.internal:8080/api/v1/orders');

    // An answer without an error body (a proxy's HTML page) gives its status, not its text.
    const { fn } = fakeFetch([() => new Response('<h1>upstream down at api.internal</h1>', { status: 418 })]);
    const proxied = (await createApiClient({ baseURL: 'http://api.internal:8080', fetch: fn })
      .get('/x')
      .catch((e) => e)) as ApiError;
    expect(proxied).toMatchObject({ status: 418, code: 'http_418', message: 'HTTP 418' });
  });
});

describe('alertText (the generic alert of islands)', () => {
  const t = createT({
    'apiError.rate_limited': 'Too many attempts.',
    'apiError.upload_quota_exceeded': 'Upload limit reached.',
  });
  it('translates the codes a user meets by going too fast', () => {
    expect(alertText(new ApiError(429, 'rate_limited', 'Too many requests', { error: 'Too many requests' }), t)).toBe(
      'Too many attempts.',
    );
    expect(alertText(new ApiError(429, 'upload_quota_exceeded', 'x', {}), t)).toBe('Upload limit reached.');
  });
  it("keeps spec §8's [status] error for the others", () => {
    expect(alertText(new ApiError(409, 'order_paid', 'Paid', { error: 'A paid order' }), t)).toBe('[409] A paid order');
  });
});

describe('island messages', () => {
  it('every island gets the alert texts of rate limits and the upload quota, in both languages', () => {
    for (const locale of ['en', 'zh-TW'] as const) {
      const messages = pickMessages(locale, ['wizard.']);
      for (const code of TRANSLATED_ALERT_CODES) expect(messages[`apiError.${code}`], `${locale} ${code}`).toBeTruthy();
    }
  });
});

describe('apiMessage (the back office refusal text)', () => {
  const messages = { 'apiError.amount_mismatch': '金額不符' };
  it('is the catalogue message of the code when there is one', () => {
    expect(apiMessage(messages, new ApiError(400, 'amount_mismatch', 'Amount does not match', {}))).toBe('金額不符');
  });
  it("is the API's own message otherwise, and empty without either", () => {
    expect(apiMessage(messages, { code: 'something_new', message: 'Something new' })).toBe('Something new');
    expect(apiMessage(messages, { message: null })).toBe('');
  });
});
