import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/*
 * Verifying the portal's own HS256 JWTs (session credentials and sealed sign-in states) with
 * node:crypto's HMAC, synchronously. jose verifies through WebCrypto, whose every call is a job
 * on libuv's thread pool and a promise back: on every signed-in request, that round trip cost
 * more than the HMAC itself (decision 077). Only what the portal issues is accepted: the checks
 * are jose's `jwtVerify` with `algorithms: ['HS256']`, `issuer`, `audience`, `typ` and
 * `currentDate`, no clock tolerance (a differential test holds them to jose's answers), and the
 * encoding is stricter (base64url without padding, a 32-byte signature, no `crit`/`b64`).
 * Tokens are still signed with jose (`SignJWT`): signing happens once per sign-in or refresh.
 */

export type Hs256Expectations = {
  issuer: string;
  audience: string;
  /** The header's `typ`, compared as jose does (case-insensitive, without an `application/` prefix). */
  typ: string;
  /** Seconds since the epoch. */
  now: number;
};

/** A JWT's claims, as JSON gave them. */
export type JwtClaims = Record<string, unknown>;

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** A SHA-256 HMAC is 32 bytes: 43 base64url characters. */
const SIGNATURE_LENGTH = 43;

const normalizeTyp = (value: string) => value.toLowerCase().replace(/^application\//, '');

function jsonObject(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The HMAC key of `secret`, made once: given bytes, createHmac builds a key object of its own on
 * every call, which cost more than the HMAC (decision 077).
 */
export const hs256Key = (secret: Uint8Array): KeyObject => createSecretKey(secret);

/** Header segments already checked (the portal issues a few, the same on every credential). */
const goodHeads = new Map<string, string>();

/**
 * The claims of `token` when it is an HS256 JWT signed with `key` that meets `expected`, else null.
 * Expired means `exp <= now`; not yet valid means `nbf > now` (jose's rules, no tolerance).
 */
export function verifyHs256(token: string, key: KeyObject, expected: Hs256Expectations): JwtClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, signature] = parts as [string, string, string];
  if (!SEGMENT.test(head) || !SEGMENT.test(body) || signature.length !== SIGNATURE_LENGTH || !SEGMENT.test(signature))
    return null;

  if (goodHeads.get(head) !== expected.typ) {
    const header = jsonObject(head);
    if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return null;
    if (typeof header.typ !== 'string' || normalizeTyp(header.typ) !== normalizeTyp(expected.typ)) return null;
    if (goodHeads.size >= 16) goodHeads.clear();
    goodHeads.set(head, expected.typ);
  }

  const mac = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== mac.length || !timingSafeEqual(given, mac)) return null;

  const claims = jsonObject(body);
  if (!claims) return null;
  if (claims.iss !== expected.issuer) return null;
  const audience = claims.aud;
  if (!(audience === expected.audience || (Array.isArray(audience) && audience.includes(expected.audience))))
    return null;
  if ('iat' in claims && !isNumber(claims.iat)) return null;
  if ('nbf' in claims && (!isNumber(claims.nbf) || claims.nbf > expected.now)) return null;
  if ('exp' in claims && (!isNumber(claims.exp) || claims.exp <= expected.now)) return null;
  return claims;
}
