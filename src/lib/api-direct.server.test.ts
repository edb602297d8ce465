import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { createDirectApiClient } from './api-direct.server';

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('API client over an in-process call (the SSR seam)', () => {
  function fakeCall(answers: (() => { response: Response; data?: unknown })[]) {
    const requests: Request[] = [];
    const fn = vi.fn(async (request: Request) => {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next();
    });
    return { fn, requests };
  }
  const answer = (status: number, body: unknown) => () => ({ response: json(status, body)() });

  it('returns the handed-over data as it is, and sends the same request as over HTTP', async () => {
    const data = { orderId: 'o1', eventTime: '2026-11-04T01:30:00.000Z' };
    const { fn, requests } = fakeCall([() => ({ response: new Response(null, { status: 201 }), data })]);
    const api = createDirectApiClient({ baseURL: 'http://embedded.invalid', token: 'tok', locale: 'zh-TW', call: fn });
    const body = await api.post('/api/v1/orders', { contactEmail: 'a@b.c' }, { registrationType: 'EVENT_GENERAL' });
    expect(body).toBe(data);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('http://embedded.invalid/api/v1/orders?registration_type=EVENT_GENERAL');
    expect(request!.headers.get('authorization')).toBe('Bearer tok');
    expect(request!.headers.get('accept-language')).toBe('zh-TW');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(await request!.json()).toEqual({ contact_email: 'a@b.c' });
  });

  it('parses and camelizes a JSON answer that was not handed over', async () => {
    const { fn } = fakeCall([answer(200, { data: [{ order_id: 'o1' }] })]);
    const api = createDirectApiClient({ baseURL: 'http://embedded.invalid', call: fn });
    await expect(api.get('/api/v1/orders', { limit: 100 })).resolves.toEqual({ data: [{ orderId: 'o1' }] });
  });

  it('retries idempotent requests twice on retryable statuses, never a POST', async () => {
    const get = fakeCall([answer(503, {}), answer(502, {}), answer(200, { data: [] })]);
    await expect(createDirectApiClient({ call: get.fn }).get('/x')).resolves.toEqual({ data: [] });
    expect(get.fn).toHaveBeenCalledTimes(3);
    const post = fakeCall([answer(503, { code: 'service_unavailable', message: 'busy', error: 'busy' })]);
    await expect(createDirectApiClient({ call: post.fn }).post('/x', {})).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
    expect(post.fn).toHaveBeenCalledTimes(1);
  });

  it('gives the same ApiError: status, code, message and the camelized body; 401 reported', async () => {
    const { fn } = fakeCall([
      answer(400, { code: 'event_capacity_full', message: 'Event is full', error: 'Event is full', seats_left: 0 }),
      answer(401, { code: 'unauthorized', message: 'Sign-in required', error: 'Sign-in required' }),
      () => ({ response: new Response('<h1>teapot</h1>', { status: 418 }) }),
    ]);
    const onUnauthorized = vi.fn();
    const api = createDirectApiClient({ call: fn, onUnauthorized });
    const error = (await api.get('/x').catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'event_capacity_full', message: 'Event is full' });
    expect(error.data).toMatchObject({ seatsLeft: 0 });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    await expect(api.post('/x')).rejects.toMatchObject({ status: 418, code: 'http_418', message: 'HTTP 418' });
  });

  it('times out, and reports a failure without an answer as a network error', async () => {
    const hang = vi.fn(() => new Promise<never>(() => {}));
    const timedOut = (await createDirectApiClient({ call: hang, timeoutMs: 50 })
      .post('/x', {})
      .catch((e) => e)) as ApiError;
    expect(timedOut).toMatchObject({ status: 0, code: 'timeout', message: 'The request timed out' });
    const broken = vi.fn(async () => {
      throw new Error('database connection lost at 10.0.0.7');
    });
    const failed = (await createDirectApiClient({ call: broken })
      .get('/x')
      .catch((e) => e)) as ApiError;
    expect(failed).toMatchObject({ status: 0, code: 'network_error', message: 'The request failed' });
    expect(broken).toHaveBeenCalledTimes(3);
  });
});
