import type { Pool, PoolClient } from 'pg';
import type { Database } from '@server/db/client';

/**
 * Counts the statements an open test database is sent (decision 073): on PostgreSQL every
 * `query` of the pool's connections (one round trip each: `pg` sends a statement's parse, bind
 * and execute together and waits for its answer before the next), `begin` and `commit`
 * included; on PGlite every Parse or simple Query message reaching the embedded server. Counts
 * only while `during` runs; answers the statements' texts in the order they were sent.
 */
export function statementCounter(database: Database) {
  let recording: string[] | undefined;
  const record = (text: string) => recording?.push(text.replace(/\s+/g, ' ').trim());
  const client = (database.db as unknown as { $client: unknown }).$client;

  if (database.kind === 'postgres') {
    const pool = client as Pool;
    const seen = new WeakSet<object>();
    const watch = <C extends PoolClient | undefined>(c: C): C => {
      if (!c || seen.has(c)) return c;
      seen.add(c);
      const query = c.query as (...args: unknown[]) => unknown;
      Object.assign(c, {
        query: (...args: unknown[]) => {
          const first = args[0];
          record(typeof first === 'string' ? first : String((first as { text?: string }).text));
          return query.apply(c, args);
        },
      });
      return c;
    };
    // pg-pool's own query() checks a connection out through this.connect (callback form).
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    Object.assign(pool, {
      connect: (...args: unknown[]) => {
        const callback = args[0] as
          | ((error: Error | undefined, c: PoolClient | undefined, done: (release?: unknown) => void) => void)
          | undefined;
        if (!callback) return (connect() as Promise<PoolClient>).then(watch);
        return connect((error: Error | undefined, c: PoolClient | undefined, done: (release?: unknown) => void) =>
          callback(error, watch(c), done),
        );
      },
    });
  } else {
    const pglite = client as { execProtocolStream: (message: Uint8Array, ...rest: unknown[]) => Promise<unknown> };
    const exec = pglite.execProtocolStream.bind(pglite);
    const decoder = new TextDecoder();
    pglite.execProtocolStream = (message, ...rest) => {
      // 'P' (Parse: name\0 text\0 …) or 'Q' (simple query: text\0), each after a 4-byte length.
      if (message[0] === 0x50 || message[0] === 0x51) {
        const body = decoder.decode(message.subarray(5));
        const parts = body.split('\0');
        record(message[0] === 0x50 ? parts[1]! : parts[0]!);
      }
      return exec(message, ...rest);
    };
  }

  return {
    async during<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      const statements: string[] = [];
      recording = statements;
      try {
        return { result: await fn(), statements };
      } finally {
        recording = undefined;
      }
    },
  };
}
