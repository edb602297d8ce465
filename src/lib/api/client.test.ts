import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { ApiError, handOverData } from './index';
import { inProcessFetch, type InProcessCall } from './in-process';
import { fakeFetch, json } from './fetch-fixtures';

/* The typed client (decision 043): case conversion, error mapping, the injected fetch, progress. */

describe('typed endpoints over the transport', () => {
  it('builds the path, converts the query and body to snake_case and the answer to camelCase', async () => {
    const { fn, calls } = fakeFetch([json(201, { order_id: 'o1', payment_status: 'pending', approval_status: null })]);
    const api = createApiClient({ baseURL: 'http://api.test', token: 'tok', locale: 'zh-TW', fetch: fn });
    const placed = await api.registrations.create(
      'market-online',
      { agreeTerms: true, companyNameEn: 'Acme' },
      { registrationType: 'MARKET_ONLINE' },
    );
    expect(placed).toEqual({ orderId: 'o1', paymentStatus: 'pending', approvalStatus: null });
    const [call] = calls;
    expect(call!.method).toBe('POST');
    expect(call!.url).toBe('http://api.test/api/v1/orders?event=market-online&registration_type=MARKET_ONLINE');
    expect(call!.body).toEqual({ agree_terms: true, company_name_en: 'Acme' });
    expect(call!.headers.get('authorization')).toBe('Bearer tok');
    expect(call!.headers.get('accept-language')).toBe('zh-TW');
  });

  it('encodes path parameters and leaves out query values that are not set', async () => {
    const { fn, calls } = fakeFetch([json(200, { data: { state: 'valid', identity: 'buyer' } })]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    await api.badges.checkLink('a/b c');
    expect(calls[0]!.url).toBe('http://api.test/api/v1/demonstration/link?code=a%2Fb+c');
    const second = fakeFetch([json(200, { data: { order_id: 'x' } })]);
    await createApiClient({ baseURL: 'http://api.test', fetch: second.fn }).orders.get('a/b');
    expect(second.calls[0]!.url).toBe('http://api.test/api/v1/orders/a%2Fb');
  });

  it('maps an error answer to an ApiError with its code, message and camelCased body', async () => {
    const { fn } = fakeFetch([
      json(409, { code: 'capacity_full', message: 'Fully booked', error: 'Fully booked', seats_left: 0 }),
    ]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    const error = await api.registrations.create('forum', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'capacity_full', message: 'Fully booked' });
    expect((error as ApiError).data).toMatchObject({ seatsLeft: 0 });
  });

  it('maps an answer without a body to http_<status>, a failed network to network_error, and calls the 401 rule', async () => {
    const onUnauthorized = vi.fn();
    const { fn } = fakeFetch([() => new Response('nope', { status: 401 })]);
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn, onUnauthorized });
    await expect(api.user.me()).rejects.toMatchObject({ status: 401, code: 'http_401', message: 'HTTP 401' });
    expect(onUnauthorized).toHaveBeenCalledOnce();

    const down = vi.fn(() => Promise.reject(new TypeError('fetch failed: http://internal.host')));
    const offline = createApiClient({ baseURL: 'http://api.test', fetch: down });
    const error = (await offline.admin.approvals.approve([{ orderNo: 'A1' }]).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, code: 'network_error', message: 'The request failed' });
    // The URL stays in the detail (for the log), never in the message.
    expect(error.detail).toContain('internal.host');
    expect(down).toHaveBeenCalledTimes(1);
  });

  it('answers timeout when the answer takes longer than the timeout', async () => {
    // As fetch does: refused at once with a signal already aborted, else when it aborts.
    const slow = vi.fn(
      (_: string, init?: RequestInit) =>
        new Promise<Response>((_, reject) => {
          const signal = init?.signal;
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const api = createApiClient({ baseURL: 'http://api.test', fetch: slow, timeoutMs: 20 });
    await expect(api.payments.tradeInfo('o1', 'en')).rejects.toMatchObject({ status: 0, code: 'timeout' });
  });
});

describe('the injected in-process fetch (SSR pages)', () => {
  it('hands a success over as it is: no JSON, no second case conversion', async () => {
    const data = { data: { orderId: 'o1', payment_like_key: 'kept as handed' } };
    const requests: Request[] = [];
    const call: InProcessCall = async (request) => {
      requests.push(request);
      return { response: new Response(null, { status: 200 }), data };
    };
    const api = createApiClient({ baseURL: 'http://embedded.invalid', token: 't', fetch: inProcessFetch(call) });
    const answer = await api.orders.list({ limit: 100 });
    expect(answer).toBe(data);
    expect(requests[0]!.url).toBe('http://embedded.invalid/api/v1/orders?limit=100');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer t');
  });

  it('parses an answer that was not handed over, and maps its errors like the network one', async () => {
    const answers = [
      json(200, { data: [{ first_day: '2026-11-03' }] }),
      json(404, { code: 'not_found', message: 'x' }),
    ];
    const call: InProcessCall = async () => ({ response: answers.shift()!() });
    const api = createApiClient({ baseURL: 'http://embedded.invalid', fetch: inProcessFetch(call) });
    await expect(api.events.pickupSchedule()).resolves.toEqual({ data: [{ firstDay: '2026-11-03' }] });
    await expect(api.events.get('gone')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('stops waiting at the timeout even when the call does not listen to the signal', async () => {
    const call: InProcessCall = () => new Promise(() => {});
    const api = createApiClient({ baseURL: 'http://embedded.invalid', fetch: inProcessFetch(call), timeoutMs: 20 });
    await expect(api.user.pageVersion()).rejects.toMatchObject({ code: 'timeout' });
  });

  it('handOverData leaves the response itself unchanged', () => {
    const response = new Response(null, { status: 204 });
    expect(handOverData(response, { a: 1 })).toBe(response);
    expect(response.status).toBe(204);
  });
});

/** A fake XMLHttpRequest: sends progress events, then answers `status` with `body`. */
function fakeXhr(status: number, body: unknown, progress: [number, number][] = []) {
  const sent: { method: string; url: string; headers: Record<string, string>; body: FormData | null }[] = [];
  class FakeXhr {
    status = 0;
    statusText = '';
    responseText = '';
    timeout = 0;
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request = { method: '', url: '', headers: {} as Record<string, string>, body: null as FormData | null };
    open(method: string, url: string) {
      this.request.method = method;
      this.request.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      this.request.body = form;
      sent.push(this.request);
      queueMicrotask(() => {
        for (const [loaded, total] of progress) this.upload.onprogress?.({ lengthComputable: true, loaded, total });
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      });
    }
  }
  return { FakeXhr, sent };
}

describe('files.upload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reports the progress of the upload and answers the uploaded file (camelCase)', async () => {
    const { FakeXhr, sent } = fakeXhr(200, { uid: 'f1', name: 'me.png', url: '/api/v1/files/f1' }, [
      [50, 200],
      [200, 200],
    ]);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const api = createApiClient({ token: 'tok', locale: 'en' });
    const seen: number[] = [];
    const file = new File(['png'], 'me.png', { type: 'image/png' });
    const uploaded = await api.files.upload(file, {
      purpose: 'personal_photo',
      onProgress: (p) => seen.push(p.percent),
    });
    expect(uploaded).toEqual({ uid: 'f1', name: 'me.png', url: '/api/v1/files/f1' });
    expect(seen).toEqual([25, 100]);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/api/v1/files/upload' });
    expect(sent[0]!.headers.authorization).toBe('Bearer tok');
    expect(sent[0]!.body!.get('purpose')).toBe('personal_photo');
    expect((sent[0]!.body!.get('file') as File).name).toBe('me.png');
  });

  it('refuses with the ApiError of the answer, and calls the 401 rule', async () => {
    const { FakeXhr } = fakeXhr(413, { code: 'file_too_large', message: 'The file exceeds 20 MB' });
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const api = createApiClient({});
    await expect(api.files.upload(new File(['x'], 'x.png'), { purpose: 'personal_photo' })).rejects.toMatchObject({
      status: 413,
      code: 'file_too_large',
    });

    const onUnauthorized = vi.fn();
    vi.stubGlobal('XMLHttpRequest', fakeXhr(401, {}).FakeXhr);
    await expect(
      createApiClient({ onUnauthorized }).files.upload(new File(['x'], 'x.png'), { purpose: 'personal_photo' }),
    ).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('without XMLHttpRequest (server side), goes through the transport and reports 100 %', async () => {
    vi.stubGlobal('XMLHttpRequest', undefined);
    const { fn, calls } = fakeFetch([json(200, { uid: 'f2', name: 'a.pdf', url: '/api/v1/files/f2' })]);
    const seen: number[] = [];
    const api = createApiClient({ baseURL: 'http://api.test', fetch: fn });
    await expect(
      api.files.upload(new File(['%PDF'], 'a.pdf'), {
        purpose: 'story_outline',
        onProgress: (p) => seen.push(p.percent),
      }),
    ).resolves.toMatchObject({ uid: 'f2' });
    expect(calls[0]!.body).toBeInstanceOf(FormData);
    expect(seen).toEqual([100]);
  });
});
