import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { Db } from '../db/client';
import { coalescing } from '../db/coalesce';
import { prepared } from '../db/prepared';
import { sessions, users } from '../db/schema';
import { PAGE_VERSION, type User } from '../identity/users';
import { requestMemo } from '../ops/request-context';
import { hs256Key, verifyHs256 } from './hs256';

/*
 * The portal's own sessions after an OpenID Connect sign-in (decision 019). The credential is a
 * short JWT signed with SESSION_SECRET (HS256) that names a row of `sessions` and carries the
 * user's e-mail and name for display; the row decides: a credential is good only while its row
 * is neither revoked nor expired, so log out ends the session on every instance at once (D14).
 */

const ISSUER = 'registration-portal';
const AUDIENCE = 'registration-portal-session';
const TYP = 'session+jwt';
/** Where verify's answers are kept in the request's memo, by credential. */
const MEMO_PREFIX = 'session:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The provider's tokens kept with a session (forwarded to the content site for the user). */
export type ProviderTokens = {
  accessToken: string;
  /** Epoch ms; undefined: the provider did not say. */
  expiresAt?: number | undefined;
  refreshToken?: string | undefined;
  /** The ID token of the sign-in (the hint of RP-initiated logout). */
  idToken?: string | undefined;
};

export type SessionRecord = {
  id: string;
  expiresAt: Date;
  absoluteExpiresAt: Date;
};

/** A verified session credential: its row, its user, and when the credential was issued/ends (s). */
export type VerifiedSession = {
  session: SessionRecord;
  user: User;
  iat: number;
  exp: number;
  /** The version of what the user's pages show (decision 032), read with the session at no extra query. */
  pageVersion: string;
};

/** A credential as issued: the token and when it (and the cookie) ends. */
export type IssuedSession = { token: string; expiresAt: Date; session: SessionRecord };

export type SessionStoreOptions = {
  db: Db;
  secret: string;
  idleSeconds: number;
  absoluteSeconds: number;
  now?: () => Date;
};

export function createSessionStore(options: SessionStoreOptions) {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const signingKey = new Uint8Array(hkdfSync('sha256', options.secret, '', 'portal session signing', 32));
  const verifyingKey = hs256Key(signingKey);
  const sealingKey = Buffer.from(hkdfSync('sha256', options.secret, '', 'portal session provider tokens', 32));
  let lastCleanup = 0;

  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

  function sign(session: SessionRecord, user: Pick<User, 'subject' | 'email' | 'name'>, at: Date): Promise<string> {
    return new SignJWT({ sid: session.id, email: user.email, name: user.name })
      .setProtectedHeader({ alg: 'HS256', typ: TYP })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(user.subject)
      .setIssuedAt(seconds(at))
      .setExpirationTime(seconds(session.expiresAt))
      .sign(signingKey);
  }

  /** AES-256-GCM: iv.tag.ciphertext, base64url. */
  function seal(tokens: ProviderTokens): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', sealingKey, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }
  function unseal(value: string): ProviderTokens | null {
    try {
      const [iv, tag, body] = value.split('.').map((p) => Buffer.from(p, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', sealingKey, iv!);
      decipher.setAuthTag(tag!);
      return JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')) as ProviderTokens;
    } catch {
      return null;
    }
  }

  /** Sessions past their absolute end are deleted now and then (at most every 10 minutes per instance). */
  async function cleanup(at: Date) {
    if (at.getTime() - lastCleanup < 10 * 60_000) return;
    lastCleanup = at.getTime();
    await db.delete(sessions).where(lt(sessions.absoluteExpiresAt, new Date(at.getTime() - 24 * 3600_000)));
  }

  /**
   * The live session row of `sid` with its user. Every signed-in request reads one: those that
   * arrive together go as one statement (decision 067, db/coalesce), prepared once per connection
   * (no query building, no re-planning). Expiry is judged at the time the statement is sent.
   */
  const sessionRow = coalescing(async (sids: string[]) => {
    const statement = prepared(db, 'session_verify_many', (d) =>
      d
        .select({
          id: sessions.id,
          expiresAt: sessions.expiresAt,
          absoluteExpiresAt: sessions.absoluteExpiresAt,
          userId: users.id,
          subject: users.subject,
          email: users.email,
          name: users.name,
          pageVersion: PAGE_VERSION,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            sql`${sessions.id} in (select value::uuid from json_array_elements_text(${sql.placeholder('sids')}::json))`,
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql.placeholder('at')),
          ),
        )
        .prepare('session_verify_many'),
    );
    const rows = await statement.execute({ sids: JSON.stringify([...new Set(sids)]), at: now() });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return sids.map((sid) => byId.get(sid));
  });

  /** verify, without the request's memo. */
  async function verifyNow(token: string): Promise<VerifiedSession | null> {
    // Synchronous HMAC (decision 077): no WebCrypto job per signed-in request.
    const claims = verifyHs256(token, verifyingKey, {
      issuer: ISSUER,
      audience: AUDIENCE,
      typ: TYP,
      now: seconds(now()),
    });
    if (!claims) return null;
    const sid = claims.sid;
    if (typeof sid !== 'string' || !UUID.test(sid) || typeof claims.iat !== 'number' || typeof claims.exp !== 'number')
      return null;
    const row = await sessionRow(sid);
    if (!row) return null;
    return {
      session: { id: row.id, expiresAt: row.expiresAt, absoluteExpiresAt: row.absoluteExpiresAt },
      user: {
        id: row.userId,
        subject: row.subject,
        email: row.email,
        name: row.name,
      },
      iat: claims.iat,
      exp: claims.exp,
      pageVersion: row.pageVersion,
    };
  }

  return {
    /** The sessions' clock (real time; tests move it). */
    now,

    /** Starts a session for `user` (after a sign-in) and issues its first credential. */
    async create(user: User, provider?: ProviderTokens): Promise<IssuedSession> {
      const at = now();
      await cleanup(at);
      const absolute = new Date(at.getTime() + options.absoluteSeconds * 1000);
      const idle = new Date(Math.min(at.getTime() + options.idleSeconds * 1000, absolute.getTime()));
      const [row] = await db
        .insert(sessions)
        .values({
          userId: user.id,
          createdAt: at,
          expiresAt: idle,
          absoluteExpiresAt: absolute,
          refreshedAt: at,
          providerTokens: provider ? seal(provider) : null,
        })
        .returning({ id: sessions.id, expiresAt: sessions.expiresAt, absoluteExpiresAt: sessions.absoluteExpiresAt });
      return { token: await sign(row!, user, at), expiresAt: row!.expiresAt, session: row! };
    },

    /**
     * The session and user behind a credential, or null (bad signature, expired, revoked, unknown).
     * Once per request (decision 060): a page's in-process API calls (its page version, then its
     * data) share the first answer; a log out in the same request forgets it (revoke).
     */
    verify(token: string): Promise<VerifiedSession | null> {
      const memo = requestMemo();
      if (!memo) return verifyNow(token);
      const key = `${MEMO_PREFIX}${token}`;
      let answer = memo.get(key) as Promise<VerifiedSession | null> | undefined;
      if (!answer) memo.set(key, (answer = verifyNow(token)));
      return answer;
    },

    /**
     * Slides a live session forward (never past its absolute end) and issues a fresh credential;
     * null when the session ended meanwhile.
     */
    async refresh(verified: VerifiedSession): Promise<IssuedSession | null> {
      const at = now();
      const [row] = await db
        .update(sessions)
        .set({
          expiresAt: sql`least(${new Date(at.getTime() + options.idleSeconds * 1000)}::timestamptz, ${sessions.absoluteExpiresAt})`,
          refreshedAt: at,
        })
        .where(and(eq(sessions.id, verified.session.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, at)))
        .returning({ id: sessions.id, expiresAt: sessions.expiresAt, absoluteExpiresAt: sessions.absoluteExpiresAt });
      if (!row) return null;
      return { token: await sign(row, verified.user, at), expiresAt: row.expiresAt, session: row };
    },

    /** Ends a session for good (log out). */
    async revoke(sessionId: string): Promise<void> {
      if (!UUID.test(sessionId)) return;
      const memo = requestMemo();
      for (const key of memo?.keys() ?? []) if (key.startsWith(MEMO_PREFIX)) memo!.delete(key);
      await db
        .update(sessions)
        .set({ revokedAt: now() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    /** The provider's tokens kept with a session, or null. */
    async providerTokens(sessionId: string): Promise<ProviderTokens | null> {
      const [row] = await db
        .select({ sealed: sessions.providerTokens })
        .from(sessions)
        .where(eq(sessions.id, sessionId))
        .limit(1);
      return row?.sealed ? unseal(row.sealed) : null;
    },

    /**
     * Signs what the sign-in callback must find again (state, nonce, PKCE verifier, language):
     * the value of a short-lived HttpOnly cookie, so no server state is needed between the legs.
     */
    sealState(data: Record<string, string>, ttlSeconds: number): Promise<string> {
      const at = seconds(now());
      return new SignJWT(data)
        .setProtectedHeader({ alg: 'HS256', typ: 'signin-state+jwt' })
        .setIssuer(ISSUER)
        .setAudience(`${AUDIENCE}-state`)
        .setIssuedAt(at)
        .setExpirationTime(at + ttlSeconds)
        .sign(signingKey);
    },
    /** The data of a sealed sign-in state, or null (tampered, expired, absent). */
    async openState(value: string | undefined): Promise<Record<string, string> | null> {
      if (!value) return null;
      const payload = verifyHs256(value, verifyingKey, {
        issuer: ISSUER,
        audience: `${AUDIENCE}-state`,
        typ: 'signin-state+jwt',
        now: seconds(now()),
      });
      if (!payload) return null;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(payload))
        if (typeof v === 'string' && !['iss', 'aud', 'sub', 'jti'].includes(k)) out[k] = v;
      return out;
    },

    /** Replaces the provider's tokens kept with a session (after a refresh grant). */
    async storeProviderTokens(sessionId: string, tokens: ProviderTokens): Promise<void> {
      await db
        .update(sessions)
        .set({ providerTokens: seal(tokens) })
        .where(eq(sessions.id, sessionId));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
