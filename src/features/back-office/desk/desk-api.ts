import type { DeskBadge, PickupResult } from '@domain/desk';
import type { QueuedPickup } from './desk-db';

/*
 * The badge desk's three API calls (GET badges, POST verify, POST pickups), behind one interface
 * the desk's store takes, so that its tests give it a fake. The desk keeps to its own few lines
 * of transport instead of the one API client (src/lib/api): the client, its endpoint functions
 * included, is bundled in the islands' shared chunk, which would take the page over its 100 KB
 * budget (decision 027; measured: 103.7 KB with it, lazy parts included, 90.3 KB without).
 */

/** The network or the server cannot be reached: the desk works on what it holds. */
export class Offline extends Error {}

/** The server answered with an error (its code, or `http_<status>`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

export type DeskApi = {
  /** The edition's badges, and when the server listed them. */
  badges(): Promise<{ data: DeskBadge[]; at: string }>;
  /** The server's view of one scanned code (HttpError 400: not genuine, 404: no such badge). */
  verify(code: string): Promise<DeskBadge>;
  /** Sends one desk's pick-ups (at most DESK_SYNC_MAX); the server's answer to each. */
  pickups(desk: string, items: QueuedPickup[]): Promise<PickupResult[]>;
  /** A meeting's table check-in (`TCCFM1.` code, issue 23): the buyer present. */
  meetingCheckIn?(code: string): Promise<MeetingScanAnswer>;
};

/** What the desk shows of a meeting checked in. */
export type MeetingScanAnswer = { companyName: string; buyer: string; table: string | null; startsAt: string };

/**
 * The agency mode's identity token: the cookie the sign-in sets (and the layout mirrors into
 * localStorage). In OIDC mode there is none a script can read: the session cookie goes along.
 */
const token = () => {
  const match = /(?:^|; )idc-token=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : (localStorage.getItem('idc-token') ?? '');
};

/** The API's snake_case keys in camelCase (its answers are plain JSON: objects, arrays, values). */
export function camel<T>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => camel(v)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camel(v)]),
    ) as T;
  return value as T;
}

/** One call (the body in wire casing); `Offline` when the network or server cannot be reached. */
async function call<T>(path: string, body?: Record<string, unknown>): Promise<T> {
  let res: Response;
  const bearer = token();
  try {
    res = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(8000),
    });
  } catch {
    throw new Offline();
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status >= 502) throw new Offline();
  if (!res.ok) throw new HttpError(res.status, typeof data.code === 'string' ? data.code : `http_${res.status}`);
  return camel<T>(data);
}

const DESK = '/api/v1/admin/desk';

/** The desk's API over the network. */
export const deskApi: DeskApi = {
  async badges() {
    const res = await call<{ data: DeskBadge[]; meta: { at: string } }>(`${DESK}/badges`);
    return { data: res.data, at: res.meta.at };
  },
  async verify(code) {
    return (await call<{ data: DeskBadge }>(`${DESK}/verify`, { code })).data;
  },
  async meetingCheckIn(code) {
    return (await call<{ data: MeetingScanAnswer }>('/api/v1/admin/meetings/check-in', { code, attendance: 'present' }))
      .data;
  },
  async pickups(desk, items) {
    const res = await call<{ data: PickupResult[] }>(`${DESK}/pickups`, {
      desk,
      pickups: items.map(({ id, badgeId, at }) => ({ id, badge_id: badgeId, at })),
    });
    return res.data;
  },
};
