import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { hs256Key, verifyHs256 } from './hs256';

/*
 * verifyHs256 against jose's jwtVerify (the verifier it replaces, decision 077): for every token
 * below, both accept or both refuse, and an accepted token gives the same claims. Two tokens
 * jose takes are refused on purpose (stricter encoding); they are listed apart.
 */

const key = new Uint8Array(32).map((_, i) => i * 7 + 1);
const otherKey = new Uint8Array(32).fill(9);
const NOW = 1_800_000_000;
const expected = { issuer: 'registration-portal', audience: 'registration-portal-session', typ: 'session+jwt' };

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hmac = (input: string, k = key) => createHmac('sha256', k).update(input).digest('base64url');
/** A token from raw header and claims, signed (or given its signature). */
function raw(header: unknown, claims: unknown, signature?: string, k = key) {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${signature ?? hmac(input, k)}`;
}
const header = { alg: 'HS256', typ: 'session+jwt' };
const claims = {
  sid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  email: 'a@example.com',
  name: '王小明',
  iss: expected.issuer,
  aud: expected.audience,
  sub: 'user-1',
  iat: NOW - 60,
  exp: NOW + 600,
};

async function jose(token: string): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      ...expected,
      currentDate: new Date(NOW * 1000),
    });
    return payload;
  } catch {
    return null;
  }
}
const ours = (token: string) => verifyHs256(token, hs256Key(key), { ...expected, now: NOW });

const signed = await new SignJWT({ sid: claims.sid, email: claims.email, name: claims.name })
  .setProtectedHeader(header)
  .setIssuer(expected.issuer)
  .setAudience(expected.audience)
  .setSubject(claims.sub)
  .setIssuedAt(claims.iat)
  .setExpirationTime(claims.exp)
  .sign(key);
const [h, p, s] = signed.split('.') as [string, string, string];
const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

const cases: [string, string][] = [
  ['as the portal signs it', signed],
  ['raw, same claims', raw(header, claims)],
  ['typ in another case and with application/', raw({ ...header, typ: 'application/SESSION+JWT' }, claims)],
  ['another typ', raw({ ...header, typ: 'signin-state+jwt' }, claims)],
  ['no typ', raw({ alg: 'HS256' }, claims)],
  ['typ not a string', raw({ ...header, typ: 1 }, claims)],
  ['alg none', raw({ ...header, alg: 'none' }, claims)],
  ['alg HS512', raw({ ...header, alg: 'HS512' }, claims)],
  ['alg RS256 (key confusion)', raw({ ...header, alg: 'RS256' }, claims)],
  ['header not an object', raw(['HS256'], claims)],
  ['claims not an object', raw(header, [claims])],
  ['claims null', raw(header, null)],
  ['claims not JSON', raw(header, '{"iss":')],
  ['other key', raw(header, claims, undefined, otherKey)],
  ['signature of other claims', `${h}.${b64({ ...claims, sub: 'user-2' })}.${s}`],
  ['a flipped signature character', `${h}.${p}.${flip(s, 5)}`],
  ['a flipped claims character', `${h}.${flip(p, 10)}.${s}`],
  ['empty signature', `${h}.${p}.`],
  ['two parts', `${h}.${p}`],
  ['four parts', `${signed}.x`],
  ['wrong issuer', raw(header, { ...claims, iss: 'someone-else' })],
  ['no issuer', raw(header, { ...claims, iss: undefined })],
  ['issuer as an array', raw(header, { ...claims, iss: [expected.issuer] })],
  ['wrong audience', raw(header, { ...claims, aud: 'registration-portal-session-state' })],
  ['audience in an array', raw(header, { ...claims, aud: ['x', expected.audience] })],
  ['audience array without ours', raw(header, { ...claims, aud: ['x', 'y'] })],
  ['no audience', raw(header, { ...claims, aud: undefined })],
  ['expired a second ago', raw(header, { ...claims, exp: NOW - 1 })],
  ['expiring now', raw(header, { ...claims, exp: NOW })],
  ['expiring in a second', raw(header, { ...claims, exp: NOW + 1 })],
  ['exp not a number', raw(header, { ...claims, exp: String(NOW + 600) })],
  ['no exp', raw(header, { ...claims, exp: undefined })],
  ['iat not a number', raw(header, { ...claims, iat: 'yesterday' })],
  ['iat in the future', raw(header, { ...claims, iat: NOW + 3600 })],
  ['nbf now', raw(header, { ...claims, nbf: NOW })],
  ['nbf in a second', raw(header, { ...claims, nbf: NOW + 1 })],
  ['nbf not a number', raw(header, { ...claims, nbf: null })],
  ['crit header', raw({ ...header, crit: ['exp'] }, claims)],
  ['b64 false', raw({ ...header, b64: false, crit: ['b64'] }, claims)],
  ['a character outside base64url in the signature', `${h}.${p}.${s.slice(0, -1)}!`],
  ['a signature one character longer', `${signed}A`],
  ['standard base64 characters in the header', `${h.replace(/-/g, '+')}+.${p}.${s}`],
  ['an empty string', ''],
  ['garbage', 'not.a.jwt'],
];

describe('verifyHs256 answers as jose does', () => {
  it.each(cases)('%s', async (_name, token) => {
    const reference = await jose(token);
    const answer = ours(token);
    expect(answer === null).toBe(reference === null);
    if (reference) expect(answer).toEqual(reference);
  });

  it('accepts the portal’s own token (the cases above are not all refusals)', () => {
    expect(ours(signed)).toMatchObject({ sid: claims.sid, name: '王小明', exp: claims.exp });
  });

  it('a header checked for one typ is checked again for another (the checked headers are kept)', () => {
    expect(ours(signed)).not.toBeNull();
    expect(verifyHs256(signed, hs256Key(key), { ...expected, typ: 'signin-state+jwt', now: NOW })).toBeNull();
    expect(ours(signed)).not.toBeNull();
  });
});

describe('verifyHs256 is stricter than jose on encoding', () => {
  it.each([
    ['padding on the signature', `${signed}=`],
    ['a b64 header without crit', raw({ ...header, b64: true }, claims)],
  ])('refuses %s, which jose takes', async (_name, token) => {
    expect(await jose(token)).not.toBeNull();
    expect(ours(token)).toBeNull();
  });
});
