import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html, raw } from 'hono/html';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';

/*
 * DEVELOPMENT identity service. Stands in for the identity provider when none is configured
 * (no IDENTITY_ISSUER in OIDC mode, no IDENTITY_URL in agency mode), and speaks both protocols
 * the portal does (decision 019):
 * - standard OpenID Connect, issuer `{origin}/dev-identity`: discovery, /authorize (scope with
 *   openid, PKCE S256 required, nonce, state; `iss` in the response, RFC 9207), /token
 *   (client_secret_basic or client_secret_post), ID tokens, a JWKS and user-info;
 * - the agency's flow of spec §2: the /signin page with login_redirect_uri, /authorize, and
 *   /oauth/token with the secret in the body, whose access token is a JWT carrying the e-mail.
 * Anyone can sign in with any e-mail: it must never be reachable in production (it is off as
 * soon as an identity provider is configured).
 */

/** `iss` of the agency-flow access tokens (the agency mode's API checks it). */
export const DEV_ISSUER = 'dev-identity';
const SESSION_COOKIE = 'dev-idp-session';
const CODE_TTL_MS = 60_000;
/** RFC 9068: the `typ` of JWT access tokens, which ID tokens never carry. */
export const ACCESS_TOKEN_TYP = 'at+jwt';

type Signer = { privateKey: CryptoKey; publicJwk: JWK; kid: string };
type PendingCode = {
  clientId: string;
  redirectUri: string;
  email: string;
  name: string;
  expiresAt: number;
  /** OIDC codes: what the token request must match, and what the tokens say. */
  oidc?: { issuer: string; scope: string[]; codeChallenge: string; nonce?: string | undefined; authTime: number };
};

/** Loads the signing key from `file` (creating it on first use), or makes an ephemeral one. */
export async function loadSigner(file?: string): Promise<Signer> {
  let jwk: JWK | undefined;
  if (file && existsSync(file)) jwk = JSON.parse(readFileSync(file, 'utf8')) as JWK;
  if (!jwk) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    jwk = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'ES256' };
    if (file) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(jwk), { mode: 0o600 });
    }
  }
  const privateKey = (await importJWK(jwk, 'ES256')) as CryptoKey;
  const { d: _d, ...publicJwk } = jwk;
  return { privateKey, publicJwk: { ...publicJwk, use: 'sig' }, kid: jwk.kid! };
}

/** A stable subject for an e-mail, so the same person is the same user across restarts. */
export const devSubject = (email: string) =>
  'dev-' + createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24);

const copy = {
  en: {
    title: 'Sign in',
    banner: 'Development identity service — for local testing only, not the real sign-in.',
    email: 'E-mail',
    name: 'Name',
    optional: '(optional)',
    submit: 'Sign in',
    invalid: 'Please enter a valid e-mail address.',
    badRequest: 'This sign-in request is not valid.',
    member: 'Member centre',
    signedInAs: 'Signed in as',
    cancel: 'Cancel',
  },
  zh: {
    title: '登入',
    banner: '開發用身分服務，僅供本機測試，並非正式登入。',
    email: '電子郵件',
    name: '姓名',
    optional: '（選填）',
    submit: '登入',
    invalid: '請輸入有效的電子郵件地址。',
    badRequest: '此登入請求無效。',
    member: '會員中心',
    signedInAs: '目前登入帳號',
    cancel: '取消',
  },
};
const pick = (lang: string | undefined) => (lang?.toLowerCase().startsWith('zh') ? copy.zh : copy.en);

const page = (lang: string, title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="${lang.toLowerCase().startsWith('zh') ? 'zh-TW' : 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f5f5f5;color:#171717}
main{max-width:24rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:.5rem;box-shadow:0 1px 3px #0002}
.banner{background:#fff4ed;border:1px solid #b23c00;color:#742b0a;padding:.5rem .75rem;border-radius:.25rem;font-size:.875rem}
label{display:block;margin-top:1rem;font-weight:600}input{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;border:1px solid #737373;border-radius:.25rem;font:inherit}
button{margin-top:1.5rem;width:100%;padding:.6rem;background:#b23c00;color:#fff;border:0;border-radius:.25rem;font:inherit;font-weight:600;cursor:pointer}
button.secondary{margin-top:.75rem;background:#fff;color:#742b0a;border:1px solid #b23c00}
.error{color:#a8161f}
</style></head><body><main>${body}</main></body></html>`;

export type DevIdentityOptions = {
  signer: Signer;
  clients: Record<string, string>;
  /** Origins whose /api/v1/user/callback may receive codes; empty = the request's own origin. */
  allowedOrigins?: string[];
  /**
   * The OIDC issuer identifier for a request: `{SITE_URL}/dev-identity` when the portal has a
   * public origin; default `{the request's origin}/dev-identity`.
   */
  issuer?: (requestUrl: URL) => string;
  tokenTtlSeconds: number;
  now?: () => number;
};

/** The parameters of an authorization request the sign-in form carries along. */
const REQUEST_PARAMS = [
  'client_id',
  'login_redirect_uri',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'ui_locales',
] as const;

const hashOf = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(hashOf(a), hashOf(b));
/** An OpenID Connect request (scope with openid), as opposed to the agency's flow. */
const isOidc = (q: Record<string, string | undefined>) => (q.scope ?? '').split(' ').includes('openid');

/** The development identity service as a Hono app mounted at /dev-identity. */
export function createDevIdentity(options: DevIdentityOptions) {
  const now = options.now ?? Date.now;
  const issuerOf = options.issuer ?? ((url: URL) => `${url.origin}/dev-identity`);
  const codes = new Map<string, PendingCode>();
  const app = new Hono().basePath('/dev-identity');

  const sign = (claims: Record<string, unknown>, ttlSeconds: number, issuer = DEV_ISSUER, typ?: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: options.signer.kid, ...(typ ? { typ } : {}) })
      .setIssuer(issuer)
      .setIssuedAt(Math.floor(now() / 1000))
      .setExpirationTime(Math.floor(now() / 1000) + ttlSeconds)
      .sign(options.signer.privateKey);

  const readSession = async (token: string | undefined) => {
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, options.signer.publicJwk as never, { issuer: DEV_ISSUER });
      return { email: String(payload.email), name: String(payload.name ?? '') };
    } catch {
      return undefined;
    }
  };

  /** Checks client_id, redirect_uri and response_type of an authorization request. */
  const validRequest = (url: URL, q: Record<string, string | undefined>) => {
    if (!q.client_id || !(q.client_id in options.clients) || q.response_type !== 'code' || !q.state) return false;
    return validRedirect(url, q);
  };
  /** The client is ours and the redirect URI is its callback: errors may then go back to it. */
  const validRedirect = (url: URL, q: Record<string, string | undefined>) => {
    if (!q.client_id || !(q.client_id in options.clients)) return false;
    try {
      const redirect = new URL(q.redirect_uri ?? '');
      const allowed = options.allowedOrigins?.length ? options.allowedOrigins : [url.origin];
      return allowed.includes(redirect.origin) && redirect.pathname === '/api/v1/user/callback' && !redirect.search;
    } catch {
      return false;
    }
  };
  /**
   * What is wrong with an OIDC authorization request whose client and redirect URI are good
   * (RFC 6749 §4.1.2.1 error code), or null.
   */
  const oidcProblem = (q: Record<string, string | undefined>) => {
    if (q.response_type !== 'code') return 'unsupported_response_type';
    // PKCE is required, and only S256 (RFC 7636 §4.2: 43 to 128 characters of base64url).
    if (q.code_challenge_method !== 'S256' || !/^[A-Za-z0-9_-]{43,128}$/.test(q.code_challenge ?? ''))
      return 'invalid_request';
    if ((q.nonce ?? '').length > 512 || (q.state ?? '').length > 1024) return 'invalid_request';
    return null;
  };
  /** The authorization response: back to the client's redirect URI with `state` and `iss`. */
  const respond = (url: URL, q: Record<string, string | undefined>, params: Record<string, string>) => {
    const target = new URL(q.redirect_uri!);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    if (q.state) target.searchParams.set('state', q.state);
    target.searchParams.set('iss', issuerOf(url));
    return target.toString();
  };

  const errorPage = (lang: string | undefined) =>
    page(lang ?? 'en', 'Error', html`<p class="error">${pick(lang).badRequest}</p>`);

  const signInForm = (q: Record<string, string>, error?: string, email = '', name = '') => {
    const t = pick(q.ui_locales);
    const hidden = REQUEST_PARAMS.filter((k) => q[k] !== undefined).map(
      (k) => html`<input type="hidden" name="${k}" value="${q[k] ?? ''}">`,
    );
    return page(
      q.ui_locales ?? 'en',
      t.title,
      html`
      <p class="banner" role="note">${t.banner}</p>
      <h1>${t.title}</h1>
      <form method="post" novalidate>
        ${hidden}
        <label for="email">${t.email}</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="${email}"
          ${error ? raw('aria-invalid="true" aria-describedby="email-error"') : ''}>
        ${error ? html`<p id="email-error" class="error">${error}</p>` : ''}
        <label for="name">${t.name} <span>${t.optional}</span></label>
        <input id="name" name="name" type="text" autocomplete="name" maxlength="100" value="${name}">
        <button type="submit">${t.submit}</button>
        ${isOidc(q) ? html`<button type="submit" name="cancel" value="1" class="secondary">${t.cancel}</button>` : ''}
      </form>`,
    );
  };

  /** Valid for the sign-in form: the agency's request, or an OIDC one with nothing wrong. */
  const validForForm = (url: URL, q: Record<string, string | undefined>) =>
    isOidc(q) ? validRedirect(url, q) && !oidcProblem(q) : validRequest(url, q);

  app.get('/.well-known/openid-configuration', (c) => {
    const issuer = issuerOf(new URL(c.req.url));
    return c.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      scopes_supported: ['openid', 'email', 'profile'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'email', 'email_verified', 'name'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  app.get('/signin', (c) => {
    const q = c.req.query();
    if (!validForForm(new URL(c.req.url), q)) return c.html(errorPage(q.ui_locales), 400);
    return c.html(signInForm(q));
  });

  app.post('/signin', async (c) => {
    const url = new URL(c.req.url);
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    if (!validForForm(url, form)) return c.html(errorPage(form.ui_locales), 400);
    if (isOidc(form) && form.cancel) return c.redirect(respond(url, form, { error: 'access_denied' }), 303);
    const email = (form.email ?? '').trim();
    const name = (form.name ?? '').trim().slice(0, 100);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
      return c.html(signInForm(form, pick(form.ui_locales).invalid, email, name), 400);
    }
    setCookie(c, SESSION_COOKIE, await sign({ email, name }, 60 * 60), {
      path: '/dev-identity',
      httpOnly: true,
      sameSite: 'Lax',
      secure: url.protocol === 'https:',
    });
    if (isOidc(form)) {
      // The form always asks (there is no password to remember): signing out of the portal and in
      // as someone else works as it does on the agency's page.
      const code = issueCode({
        clientId: form.client_id!,
        redirectUri: form.redirect_uri!,
        email,
        name,
        oidc: {
          issuer: issuerOf(url),
          scope: form.scope!.split(' '),
          codeChallenge: form.code_challenge!,
          nonce: form.nonce || undefined,
          authTime: Math.floor(now() / 1000),
        },
      });
      return c.redirect(respond(url, form, { code }), 303);
    }
    const next = new URLSearchParams({
      client_id: form.client_id!,
      redirect_uri: form.redirect_uri!,
      response_type: 'code',
      state: form.state!,
      ui_locales: form.ui_locales ?? 'en',
    });
    return c.redirect(`/dev-identity/authorize?${next.toString()}`, 303);
  });

  const issueCode = (pending: Omit<PendingCode, 'expiresAt'>) => {
    // Expired codes are dropped as new ones arrive: the map never outgrows a burst of sign-ins.
    for (const [old, p] of codes) if (p.expiresAt < now()) codes.delete(old);
    const code = randomBytes(24).toString('base64url');
    codes.set(code, { ...pending, expiresAt: now() + CODE_TTL_MS });
    return code;
  };

  app.get('/authorize', async (c) => {
    const url = new URL(c.req.url);
    const q = c.req.query();
    if (isOidc(q)) {
      // A bad client or redirect URI is shown here; anything else goes back to the client.
      if (!validRedirect(url, q)) return c.html(errorPage(q.ui_locales), 400);
      const problem = oidcProblem(q);
      if (problem) return c.redirect(respond(url, q, { error: problem }), 302);
      const params = Object.fromEntries(REQUEST_PARAMS.filter((k) => q[k] !== undefined).map((k) => [k, q[k]!]));
      return c.redirect(`/dev-identity/signin?${new URLSearchParams(params).toString()}`, 302);
    }
    if (!validRequest(url, q)) return c.html(errorPage(q.ui_locales), 400);
    const session = await readSession(getCookie(c, SESSION_COOKIE));
    if (!session) {
      return c.redirect(
        '/dev-identity/signin?' + new URLSearchParams({ ...q, login_redirect_uri: '/authorize' }).toString(),
        302,
      );
    }
    const code = issueCode({ clientId: q.client_id!, redirectUri: q.redirect_uri!, ...session });
    const target = new URL(q.redirect_uri!);
    target.searchParams.set('code', code);
    target.searchParams.set('state', q.state!);
    return c.redirect(target.toString(), 302);
  });

  /** Takes a code (single use, even when the exchange then fails). */
  const redeem = (code: string | undefined) => {
    const pending = codes.get(code ?? '');
    codes.delete(code ?? '');
    return pending && pending.expiresAt >= now() ? pending : undefined;
  };

  // The agency's token endpoint (spec §2 flow): the client secret in the body.
  app.post('/oauth/token', async (c) => {
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    const fail = (error: string, status: 400 | 401 = 400) => c.json({ error }, status);
    if (form.grant_type !== 'authorization_code') return fail('unsupported_grant_type');
    const clientSecret = options.clients[form.client_id ?? ''];
    if (!clientSecret || !sameSecret(clientSecret, form.client_secret ?? '')) return fail('invalid_client', 401);
    const pending = redeem(form.code);
    if (!pending || pending.oidc || pending.clientId !== form.client_id || pending.redirectUri !== form.redirect_uri) {
      return fail('invalid_grant');
    }
    const accessToken = await sign(
      { sub: devSubject(pending.email), email: pending.email, name: pending.name || null },
      options.tokenTtlSeconds,
      DEV_ISSUER,
      ACCESS_TOKEN_TYP,
    );
    return c.json({ access_token: accessToken, token_type: 'Bearer', expires_in: options.tokenTtlSeconds });
  });

  // The OpenID Connect token endpoint: client_secret_basic or client_secret_post, PKCE.
  app.post('/token', async (c) => {
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    c.header('cache-control', 'no-store');
    const fail = (error: string, status: 400 | 401 = 400) => c.json({ error }, status);
    let clientId = form.client_id;
    let secret = form.client_secret;
    const basic = /^Basic\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (basic) {
      // RFC 6749 §2.3.1: one method per request; the id and secret are form-urlencoded first.
      if (secret !== undefined) return fail('invalid_request');
      const [id, pass] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      try {
        clientId = decodeURIComponent((id ?? '').replace(/\+/g, ' '));
        secret = decodeURIComponent((pass ?? '').replace(/\+/g, ' '));
      } catch {
        return fail('invalid_client', 401);
      }
      if (form.client_id !== undefined && form.client_id !== clientId) return fail('invalid_request');
    }
    const expected = options.clients[clientId ?? ''];
    if (!expected || secret === undefined || !sameSecret(expected, secret)) return fail('invalid_client', 401);
    if (form.grant_type !== 'authorization_code') return fail('unsupported_grant_type');
    const pending = redeem(form.code);
    if (!pending?.oidc || pending.clientId !== clientId || pending.redirectUri !== form.redirect_uri) {
      return fail('invalid_grant');
    }
    const verifier = form.code_verifier ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || challenge !== pending.oidc.codeChallenge) {
      return fail('invalid_grant');
    }
    const { issuer, scope, nonce, authTime } = pending.oidc;
    const sub = devSubject(pending.email);
    const claims = {
      ...(scope.includes('email') ? { email: pending.email, email_verified: true } : {}),
      ...(scope.includes('profile') && pending.name ? { name: pending.name } : {}),
    };
    const accessToken = await sign(
      { sub, scope: scope.join(' '), client_id: clientId, jti: randomBytes(12).toString('base64url'), ...claims },
      options.tokenTtlSeconds,
      issuer,
      ACCESS_TOKEN_TYP,
    );
    // Like oidc-provider's default, the ID token names the user and the claims of the scope come
    // from user-info: the portal's client reads them there.
    const idToken = await sign(
      { sub, aud: clientId, auth_time: authTime, ...(nonce ? { nonce } : {}) },
      options.tokenTtlSeconds,
      issuer,
      'JWT',
    );
    return c.json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: options.tokenTtlSeconds,
      id_token: idToken,
      scope: scope.join(' '),
    });
  });

  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [options.signer.publicJwk] }));

  // User info for an access token of either flow (never for an ID token: `typ` tells them apart).
  app.get('/userinfo', async (c) => {
    const token = c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
    try {
      const { payload } = await jwtVerify(token ?? '', options.signer.publicJwk as never, {
        typ: ACCESS_TOKEN_TYP,
        currentDate: new Date(now()),
      });
      return c.json({
        sub: payload.sub,
        ...(payload.email !== undefined ? { email: payload.email } : {}),
        ...(payload.email_verified !== undefined ? { email_verified: payload.email_verified } : {}),
        ...(typeof payload.name === 'string' ? { name: payload.name } : {}),
      });
    } catch {
      c.header('www-authenticate', 'Bearer error="invalid_token"');
      return c.json({ error: 'invalid_token' }, 401);
    }
  });

  app.get('/member', async (c) => {
    const t = pick(c.req.query('locale'));
    const session = await readSession(getCookie(c, SESSION_COOKIE));
    return c.html(
      page(
        c.req.query('locale') ?? 'en',
        t.member,
        html`
      <p class="banner" role="note">${t.banner}</p><h1>${t.member}</h1>
      <p>${session ? html`${t.signedInAs} ${session.email}` : ''}</p>`,
      ),
    );
  });

  return app;
}
