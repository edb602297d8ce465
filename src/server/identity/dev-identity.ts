import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html, raw } from 'hono/html';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';

/*
 * DEVELOPMENT identity service. Stands in for the agency's identity service when IDENTITY_URL is
 * not configured, speaking the same OAuth2 authorization-code protocol (spec §2): a sign-in page,
 * /authorize, a token endpoint, a JWKS and a user-info endpoint. Anyone can sign in with any
 * e-mail: it must never be reachable in production (it is off as soon as IDENTITY_URL is set).
 */

export const DEV_ISSUER = 'dev-identity';
const SESSION_COOKIE = 'dev-idp-session';
const CODE_TTL_MS = 60_000;

type Signer = { privateKey: CryptoKey; publicJwk: JWK; kid: string };
type PendingCode = { clientId: string; redirectUri: string; email: string; name: string; expiresAt: number };

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
.error{color:#a8161f}
</style></head><body><main>${body}</main></body></html>`;

export type DevIdentityOptions = {
  signer: Signer;
  clients: Record<string, string>;
  /** Origins whose /api/v1/user/callback may receive codes; empty = the request's own origin. */
  allowedOrigins?: string[];
  tokenTtlSeconds: number;
  now?: () => number;
};

/** The development identity service as a Hono app mounted at /dev-identity. */
export function createDevIdentity(options: DevIdentityOptions) {
  const now = options.now ?? Date.now;
  const codes = new Map<string, PendingCode>();
  const app = new Hono().basePath('/dev-identity');

  const sign = (claims: Record<string, unknown>, ttlSeconds: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: options.signer.kid })
      .setIssuer(DEV_ISSUER)
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
    try {
      const redirect = new URL(q.redirect_uri ?? '');
      const allowed = options.allowedOrigins?.length ? options.allowedOrigins : [url.origin];
      return allowed.includes(redirect.origin) && redirect.pathname === '/api/v1/user/callback';
    } catch {
      return false;
    }
  };

  const signInForm = (q: Record<string, string>, error?: string, email = '', name = '') => {
    const t = pick(q.ui_locales);
    const hidden = ['client_id', 'login_redirect_uri', 'redirect_uri', 'response_type', 'state', 'ui_locales'].map(
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
      </form>`,
    );
  };

  app.get('/signin', (c) => {
    const q = c.req.query();
    if (!validRequest(new URL(c.req.url), q))
      return c.html(
        page(q.ui_locales ?? 'en', 'Error', html`<p class="error">${pick(q.ui_locales).badRequest}</p>`),
        400,
      );
    return c.html(signInForm(q));
  });

  app.post('/signin', async (c) => {
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    if (!validRequest(new URL(c.req.url), form))
      return c.html(
        page(form.ui_locales ?? 'en', 'Error', html`<p class="error">${pick(form.ui_locales).badRequest}</p>`),
        400,
      );
    const email = (form.email ?? '').trim();
    const name = (form.name ?? '').trim().slice(0, 100);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
      return c.html(signInForm(form, pick(form.ui_locales).invalid, email, name), 400);
    }
    setCookie(c, SESSION_COOKIE, await sign({ email, name }, 60 * 60), {
      path: '/dev-identity',
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
    });
    const next = new URL(c.req.url);
    next.pathname = '/dev-identity/authorize';
    next.search = new URLSearchParams({
      client_id: form.client_id!,
      redirect_uri: form.redirect_uri!,
      response_type: 'code',
      state: form.state!,
      ui_locales: form.ui_locales ?? 'en',
    }).toString();
    return c.redirect(next.pathname + next.search, 303);
  });

  app.get('/authorize', async (c) => {
    const q = c.req.query();
    if (!validRequest(new URL(c.req.url), q))
      return c.html(
        page(q.ui_locales ?? 'en', 'Error', html`<p class="error">${pick(q.ui_locales).badRequest}</p>`),
        400,
      );
    const session = await readSession(getCookie(c, SESSION_COOKIE));
    if (!session) {
      return c.redirect(
        '/dev-identity/signin?' + new URLSearchParams({ ...q, login_redirect_uri: '/authorize' }).toString(),
        302,
      );
    }
    // Expired codes are dropped as new ones arrive: the map never outgrows a burst of sign-ins.
    for (const [old, pending] of codes) if (pending.expiresAt < now()) codes.delete(old);
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      clientId: q.client_id!,
      redirectUri: q.redirect_uri!,
      ...session,
      expiresAt: now() + CODE_TTL_MS,
    });
    const target = new URL(q.redirect_uri!);
    target.searchParams.set('code', code);
    target.searchParams.set('state', q.state!);
    return c.redirect(target.toString(), 302);
  });

  app.post('/oauth/token', async (c) => {
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    const fail = (error: string, status: 400 | 401 = 400) => c.json({ error }, status);
    if (form.grant_type !== 'authorization_code') return fail('unsupported_grant_type');
    const clientSecret = options.clients[form.client_id ?? ''];
    if (!clientSecret || clientSecret !== form.client_secret) return fail('invalid_client', 401);
    const pending = codes.get(form.code ?? '');
    codes.delete(form.code ?? ''); // single use, even when the exchange fails
    if (
      !pending ||
      pending.expiresAt < now() ||
      pending.clientId !== form.client_id ||
      pending.redirectUri !== form.redirect_uri
    ) {
      return fail('invalid_grant');
    }
    const accessToken = await sign(
      { sub: devSubject(pending.email), email: pending.email, name: pending.name || null },
      options.tokenTtlSeconds,
    );
    return c.json({ access_token: accessToken, token_type: 'Bearer', expires_in: options.tokenTtlSeconds });
  });

  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [options.signer.publicJwk] }));

  app.get('/userinfo', async (c) => {
    const token = c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
    try {
      const { payload } = await jwtVerify(token ?? '', options.signer.publicJwk as never, { issuer: DEV_ISSUER });
      return c.json({ sub: payload.sub, email: payload.email, name: payload.name ?? null });
    } catch {
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
