import { lt, sql } from 'drizzle-orm';
import type { RateRule } from '../config';
import type { Db } from '../db/client';
import { coalescing } from '../db/coalesce';
import { rateLimits } from '../db/schema';

/*
 * Rate limits (decision 021): fixed-window counters behind one interface, kept where every
 * instance sees them. PostgreSQL (one atomic upsert per key and window), Redis when configured
 * (INCR + PEXPIRE in one script), and memory for the embedded default (PGlite, one process).
 * A store that fails lets the request through (and says so in the log): a limit protects the
 * portal, it must not take it down with its store.
 */

export type { RateRule };

export type RateLimitResult = {
  allowed: boolean;
  /** Hits in this window, this one included. */
  count: number;
  limit: number;
  /** Whole seconds until the window ends (the Retry-After of a refusal), at least 1. */
  retryAfterSeconds: number;
};

/** Where the counters live. `hit` counts one and returns the window's count so far. */
export interface RateLimitStore {
  readonly kind: 'memory' | 'postgres' | 'redis';
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
  /** Forgets expired windows (the background worker calls it); returns how many went. */
  sweep(now: number): Promise<number>;
  close(): Promise<void>;
}

export type RateLimiter = {
  readonly kind: RateLimitStore['kind'];
  /** Counts one hit of `subject` in `bucket` under `rule`. */
  check(bucket: string, subject: string, rule: RateRule): Promise<RateLimitResult>;
  sweep(): Promise<number>;
  close(): Promise<void>;
};

type Log = (level: 'warn', message: string, data?: Record<string, unknown>) => void;

/** The limiter over `store`; `now` is the clock (tests move it). */
export function createRateLimiter(store: RateLimitStore, options: { now?: () => number; log?: Log } = {}): RateLimiter {
  const now = options.now ?? Date.now;
  let lastFailureLog = 0;
  return {
    kind: store.kind,
    async check(bucket, subject, rule) {
      const at = now();
      const windowStart = Math.floor(at / rule.windowMs) * rule.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + rule.windowMs - at) / 1000));
      // Keys stay short and free of separators whatever the subject holds (an address, a user id).
      const key = `${bucket}:${subject.replace(/[^A-Za-z0-9.:_-]/g, '_').slice(0, 128)}`;
      let count: number;
      try {
        count = await store.hit(key, windowStart, rule.windowMs);
      } catch (error) {
        if (at - lastFailureLog > 60_000) {
          lastFailureLog = at;
          options.log?.('warn', 'rate limit store failed; requests are let through', {
            store: store.kind,
            errorClass: (error as Error)?.constructor?.name,
            code: (error as { code?: unknown })?.code,
          });
        }
        return { allowed: true, count: 0, limit: rule.limit, retryAfterSeconds };
      }
      return { allowed: count <= rule.limit, count, limit: rule.limit, retryAfterSeconds };
    },
    sweep: () => store.sweep(now()),
    close: () => store.close(),
  };
}

/** Counters in this process: the embedded default (PGlite serves one process anyway). */
export function memoryRateLimitStore(options: { maxKeys?: number } = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const windows = new Map<string, { start: number; end: number; hits: number }>();
  const sweep = (now: number) => {
    let gone = 0;
    for (const [key, w] of windows) {
      if (w.end <= now) {
        windows.delete(key);
        gone++;
      }
    }
    return gone;
  };
  return {
    kind: 'memory',
    async hit(key, windowStart, windowMs) {
      const current = windows.get(key);
      if (current && current.start === windowStart) return ++current.hits;
      // A flood of distinct keys (many addresses) cannot grow the map without bound.
      if (!current && windows.size >= maxKeys) {
        sweep(windowStart);
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
      }
      windows.set(key, { start: windowStart, end: windowStart + windowMs, hits: 1 });
      return 1;
    },
    async sweep(now) {
      return sweep(now);
    },
    async close() {
      windows.clear();
    },
  };
}

/**
 * Counters in PostgreSQL: one row per key and window, one atomic upsert per hit. Hits that
 * arrive together go as one statement (decision 067, db/coalesce): in a registration burst every
 * request counts a hit, and a thousand upserts (each its own transaction and commit) were a fifth
 * of the statements. Each hit still gets its own count: n hits of a key in one statement add n,
 * and the k-th of them answers the total less the n - k that came after it.
 */
export function postgresRateLimitStore(db: Db): RateLimitStore {
  type Hit = { key: string; windowStart: number; windowMs: number };
  const hits = coalescing<Hit, number>(async (batch) => {
    const groups = new Map<string, { key: string; ws: number; ex: number; n: number }>();
    const slots = batch.map((h) => {
      const id = `${h.windowStart}:${h.key}`;
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { key: h.key, ws: h.windowStart, ex: h.windowStart + h.windowMs, n: 0 }));
      return { id, nth: ++group.n };
    });
    const result = (await db.execute(sql`
      insert into ${rateLimits} (key, window_start, hits, expires_at)
        select t.key, to_timestamp(t.ws / 1000.0), t.n, to_timestamp(t.ex / 1000.0)
        from json_to_recordset(${JSON.stringify([...groups.values()])}::json) as t(key text, ws int8, ex int8, n int4)
      on conflict (key, window_start) do update set hits = ${rateLimits}.hits + excluded.hits
      returning key, floor(extract(epoch from window_start) * 1000)::int8::text as ws, hits`)) as unknown as {
      rows: { key: string; ws: string; hits: number }[];
    };
    const totals = new Map(result.rows.map((r) => [`${r.ws}:${r.key}`, Number(r.hits)]));
    return slots.map(({ id, nth }) => totals.get(id)! - (groups.get(id)!.n - nth));
  });
  return {
    kind: 'postgres',
    hit: (key, windowStart, windowMs) => hits({ key, windowStart, windowMs }),
    async sweep(now) {
      const gone = await db
        .delete(rateLimits)
        .where(lt(rateLimits.expiresAt, new Date(now)))
        .returning({ key: rateLimits.key });
      return gone.length;
    },
    async close() {},
  };
}

/** INCR the window's key and, on its first hit, let it expire with the window. */
const REDIS_HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * Counters in Redis (REDIS_URL): a key per window that expires by itself. The client connects on
 * first use and reconnects on its own; while Redis is unreachable, hits fail fast (no offline
 * queue) and the limiter lets requests through.
 */
export function redisRateLimitStore(options: { url: string; prefix: string; log?: Log }): RateLimitStore {
  /** What the store uses of node-redis's client. */
  type Client = {
    eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
    quit(): Promise<unknown>;
    readonly isOpen: boolean;
  };
  let client: Promise<Client> | undefined;
  /** After a failed connection, hits fail at once for a while instead of each trying again. */
  let downUntil = 0;
  const connect = () => {
    if (!client && Date.now() < downUntil) return Promise.reject(new Error('Redis unavailable'));
    return (client ??= (async () => {
      const { createClient } = await import('redis');
      let connected = false;
      const c = createClient({
        url: options.url,
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 2000,
          // Once connected, reconnect for ever (hits fail fast meanwhile); the first connection
          // is not retried: connect() fails and the next hits wait out `downUntil`.
          reconnectStrategy: (retries, cause) => (connected ? Math.min(retries * 200, 5000) : cause),
        },
      });
      // Without a listener an 'error' event would end the process.
      c.on('error', () => {});
      await c.connect();
      connected = true;
      return c as unknown as Client;
    })().catch((error) => {
      client = undefined;
      downUntil = Date.now() + 5000;
      throw error;
    }));
  };
  return {
    kind: 'redis',
    async hit(key, windowStart, windowMs) {
      const c = await connect();
      const reply = await c.eval(REDIS_HIT, {
        keys: [`${options.prefix}rl:${key}:${windowStart}`],
        arguments: [String(windowMs + 1000)],
      });
      return Number(reply);
    },
    async sweep() {
      return 0; // keys expire by themselves
    },
    async close() {
      const c = await client?.catch(() => undefined);
      client = undefined;
      if (c?.isOpen) await c.quit();
    },
  };
}
