/**
 * DEVELOPMENT content site at /dev-content (decision 016): stands in for the agency's content site
 * when CONTENT_SITE_URL is not configured. It speaks the protocol the portal's content client
 * speaks (`GET /dev-content/api/works[?ids=…]` with the user's Bearer token and the portal's client
 * credentials) and has two small bilingual pages where a user signed in to the portal (its
 * `idc-token` cookie in agency mode, its session cookie in OIDC mode) lists their works and adds one.
 *
 * The server may not import the pages' i18n files (decision 008): the catch-all endpoint that
 * mounts this app hands their messages in as the `devContentMessages` binding (`app.fetch(request,
 * { devContentMessages })`); without it the pages show message keys.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { formatMoney } from '@domain/format';
import { WORK_CATEGORIES, WORK_GENRES, type WorkGenre } from '@domain/works';
import { LOCALE_COOKIE, localePath, negotiateLocale, toLocale, type Locale } from '@i18n/locales';
import type { Db } from '../db/client';
import { devContentWorks } from '../db/schema';
import { devPageStyle } from '../dev-page-style';
import type { IdentityClaims } from '../identity/identity';
import type { WorkRecord } from './works';

export type DevContentMessages = Partial<Record<Locale, Record<string, string>>>;
export type DevContentEnv = { Bindings: { devContentMessages?: DevContentMessages } };

/** Who is signed in to the portal on a page of the dev content site. */
type SignedIn = { sub: string; email: string };

export type DevContentSiteOptions = {
  db: Db;
  /** Verifies the user tokens of the protocol API (the same identity provider as the portal's). */
  identity: { verify(token: string): Promise<IdentityClaims> };
  /** Who is signed in to the portal on a page request; default: the `idc-token` cookie, verified. */
  signedIn?: (c: Context) => Promise<SignedIn | null>;
  /** Client id → secret of the callers of the protocol API (the portal). */
  clients: Record<string, string>;
  /** Origins whose form posts are accepted besides the request's own (SITE_URL behind a proxy). */
  allowedOrigins?: string[];
};

/** Title limit (spec §3: text fields ≤ 256). */
export const DEV_CONTENT_TITLE_MAX = 256;
/** Highest price in whole units (the column holds hundredths in a 32-bit integer). */
export const DEV_CONTENT_PRICE_MAX = 10_000_000;
const TOKEN_COOKIE = 'idc-token';

/** The user's works (oldest first), or those of `ids`. */
export async function listDevContentWorks(db: Db, subject: string, ids?: number[]): Promise<WorkRecord[]> {
  const rows = await db
    .select()
    .from(devContentWorks)
    .where(
      ids
        ? and(eq(devContentWorks.ownerSubject, subject), inArray(devContentWorks.id, ids))
        : eq(devContentWorks.ownerSubject, subject),
    )
    .orderBy(asc(devContentWorks.id));
  return rows.map((r) => ({
    id: r.id,
    genre: r.genre as WorkGenre,
    categoryId: r.categoryId,
    titleEn: r.titleEn,
    titleZh: r.titleZh,
    priceCentsTwd: r.priceCentsTwd,
    priceCentsUsd: r.priceCentsUsd,
  }));
}

type WorkInput = Omit<WorkRecord, 'id'>;
type FieldError = { field: string; key: string; vars?: Record<string, string | number> };

/** Checks the add-a-work form; prices come in whole units. */
export function parseWorkForm(form: Record<string, string>): { value?: WorkInput; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const title = (field: 'title_en' | 'title_zh', key: string) => {
    const v = (form[field] ?? '').trim();
    if (!v) errors.push({ field, key });
    else if ([...v].length > DEV_CONTENT_TITLE_MAX || /[\u0000-\u001f\u007f]/.test(v))
      errors.push({ field, key: 'devContent.error.tooLong', vars: { max: DEV_CONTENT_TITLE_MAX } });
    return v;
  };
  const titleEn = title('title_en', 'devContent.error.titleEn');
  const titleZh = title('title_zh', 'devContent.error.titleZh');
  const genre = form.genre as WorkGenre;
  if (!WORK_GENRES.includes(genre)) errors.push({ field: 'genre', key: 'devContent.error.genre' });
  const categoryId = Number(form.category_id);
  if (!/^\d{1,2}$/.test(form.category_id ?? '') || !(WORK_CATEGORIES as readonly number[]).includes(categoryId))
    errors.push({ field: 'category_id', key: 'devContent.error.category' });
  const price = (field: 'price_twd' | 'price_usd') => {
    const v = (form[field] ?? '').trim();
    const n = Number(v);
    if (!/^\d{1,8}$/.test(v) || n > DEV_CONTENT_PRICE_MAX) {
      errors.push({ field, key: 'devContent.error.price', vars: { max: DEV_CONTENT_PRICE_MAX } });
      return 0;
    }
    return n * 100;
  };
  const priceCentsTwd = price('price_twd');
  const priceCentsUsd = price('price_usd');
  if (errors.length) return { errors };
  return { value: { genre, categoryId, titleEn, titleZh, priceCentsTwd, priceCentsUsd }, errors };
}

const STYLE = `${devPageStyle('60rem')}
.notice{background:#ecfdf5;border:1px solid #047857;color:#065f46;padding:.5rem .75rem;border-radius:.25rem}
.errors{background:#fef2f2;border:1px solid #b91c1c;color:#7f1d1d;padding:.5rem .75rem;border-radius:.25rem}
form{background:#fff;padding:1rem;border-radius:.25rem;display:grid;gap:1rem;max-width:36rem}
label,legend{display:block;font-weight:600}fieldset{border:0;padding:0;margin:0}
input[type=text],input[type=number],select{display:block;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #737373;border-radius:.25rem;font:inherit;background:#fff}
.radio{display:flex;gap:1.5rem}.radio label{font-weight:400;display:inline-flex;gap:.4rem;align-items:center}
.hint{font-size:.875rem;color:#525252;margin:.25rem 0 0}.error{color:#b91c1c;font-size:.875rem;margin:.25rem 0 0}
[aria-invalid=true]{border-color:#b91c1c!important}
button,.button{justify-self:start;padding:.55rem 1rem;background:#b23c00;color:#fff;border:0;border-radius:.25rem;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;display:inline-block}
a{color:#9a3412}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #171717;outline-offset:2px}
.other{display:block;font-size:.875rem;color:#525252}
`;

const hashOf = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(hashOf(a), hashOf(b));

/** The dev content site as a Hono app mounted at /dev-content. */
export function createDevContentSite(options: DevContentSiteOptions) {
  const { db } = options;
  const app = new Hono<DevContentEnv>().basePath('/dev-content');

  // ---- Protocol API (what the portal's content client calls) ---------------------------------
  app.get('/api/works', async (c) => {
    const id = c.req.header('x-client-id') ?? '';
    const secret = c.req.header('x-client-secret') ?? '';
    const expected = options.clients[id];
    if (!expected || !sameSecret(secret, expected)) return c.json({ error: 'invalid_client' }, 401);
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    let claims: IdentityClaims;
    try {
      if (!token) throw new Error('no token');
      claims = await options.identity.verify(token);
    } catch {
      return c.json({ error: 'invalid_token' }, 401);
    }
    const rawIds = c.req.query('ids');
    let ids: number[] | undefined;
    if (rawIds !== undefined) {
      const parts = rawIds.split(',').filter(Boolean);
      if (parts.length > 100 || !parts.every((p) => /^[1-9]\d{0,14}$/.test(p)))
        return c.json({ error: 'invalid_ids', message: 'ids: up to 100 positive integers, comma-separated' }, 400);
      ids = parts.map(Number);
      if (ids.length === 0) return c.json({ data: [] });
    }
    const works = await listDevContentWorks(db, claims.sub, ids);
    return c.json({
      data: works.map((w) => ({
        id: w.id,
        genre: w.genre,
        category_id: w.categoryId,
        title_en: w.titleEn,
        title_zh: w.titleZh,
        price_cents_twd: w.priceCentsTwd,
        price_cents_usd: w.priceCentsUsd,
      })),
    });
  });

  // ---- Pages ---------------------------------------------------------------------------------
  const localeOf = (c: Context<DevContentEnv>, fromForm?: string): Locale =>
    toLocale(fromForm) ??
    negotiateLocale({
      query: c.req.query('lang'),
      stored: getCookie(c, LOCALE_COOKIE),
      acceptLanguage: c.req.header('accept-language'),
    });
  const translate = (c: Context<DevContentEnv>, l: Locale) => {
    const messages = c.env?.devContentMessages?.[l] ?? {};
    return (key: string, vars?: Record<string, string | number>) => {
      const text = messages[key] ?? key;
      return vars ? text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? '')) : text;
    };
  };
  const signedIn = async (c: Context<DevContentEnv>) => {
    if (options.signedIn) return options.signedIn(c);
    const token = getCookie(c, TOKEN_COOKIE);
    if (!token) return null;
    try {
      return await options.identity.verify(token);
    } catch {
      return null;
    }
  };
  const sameOrigin = (c: Context<DevContentEnv>) => {
    const origin = c.req.header('origin');
    if (origin) return origin === new URL(c.req.url).origin || (options.allowedOrigins ?? []).includes(origin);
    const site = c.req.header('sec-fetch-site');
    // The page's form is authenticated by a cookie: a post that says nothing of its origin is refused.
    return site === 'same-origin';
  };

  type View = {
    l: Locale;
    claims: SignedIn | null;
    errors?: FieldError[];
    values?: Record<string, string>;
    created?: WorkRecord | undefined;
  };

  const render = async (c: Context<DevContentEnv>, view: View, status: 200 | 400 | 403 | 404 = 200) => {
    const { l, claims } = view;
    const t = translate(c, l);
    const lang = l === 'zh-TW' ? 'zh-TW' : 'en';
    const other: Locale = l === 'en' ? 'zh-TW' : 'en';
    const here = `/dev-content?lang=${lang}`;
    const values = view.values ?? {};
    const errors = view.errors ?? [];
    const errorOf = (field: string) => errors.find((e) => e.field === field);
    const describe = (field: string, hint: boolean) => {
      const ids = [hint ? `${field}-hint` : '', errorOf(field) ? `${field}-error` : ''].filter(Boolean).join(' ');
      return raw(
        `${ids ? ` aria-describedby="${ids}"` : ''}${errorOf(field) ? ' aria-invalid="true"' : ''}`,
      ) as HtmlEscapedString;
    };
    const errorText = (field: string) => {
      const e = errorOf(field);
      return e ? html`<p id="${field}-error" class="error">${t(e.key, e.vars)}</p>` : '';
    };
    const money = (cents: number, currency: 'TWD' | 'USD') => formatMoney(cents, currency, l);
    const title = (w: WorkRecord) => (l === 'zh-TW' ? [w.titleZh, w.titleEn] : [w.titleEn, w.titleZh]);
    const signInHref = `/api/v1/user/signin?${new URLSearchParams({ locale: lang, return_to: here })}`;

    let body;
    if (!claims) {
      body = html`<p>${t('devContent.signInFirst')}</p>
        <p><a class="button" href="${signInHref}">${t('devContent.signIn')}</a></p>`;
    } else {
      const works = await listDevContentWorks(db, claims.sub);
      const list = works.length
        ? html`<div class="scroll"><table><caption>${t('devContent.listCaption')}</caption>
<thead><tr><th scope="col">${t('devContent.col.id')}</th><th scope="col">${t('devContent.col.title')}</th><th scope="col">${t('devContent.col.genre')}</th>
<th scope="col">${t('devContent.col.category')}</th><th scope="col">${t('devContent.col.priceTwd')}</th><th scope="col">${t('devContent.col.priceUsd')}</th></tr></thead>
<tbody>${works.map((w) => {
            const [main, second] = title(w);
            return html`<tr><td>${w.id}</td><td><span lang="${lang}">${main}</span><span class="other" lang="${l === 'zh-TW' ? 'en' : 'zh-TW'}">${second}</span></td>
<td>${t(`enum.workGenre.${w.genre}`)}</td><td>${t(`enum.workCategory.${w.categoryId}`)}</td>
<td>${money(w.priceCentsTwd, 'TWD')}</td><td>${money(w.priceCentsUsd, 'USD')}</td></tr>`;
          })}</tbody></table></div>`
        : html`<p>${t('devContent.empty')}</p>`;
      const field = (name: 'title_en' | 'title_zh', label: string, fieldLang: string) =>
        html`<div><label for="${name}">${label} <span class="hint">${t('devContent.required')}</span></label>
<input id="${name}" name="${name}" type="text" lang="${fieldLang}" required maxlength="${DEV_CONTENT_TITLE_MAX}" value="${values[name] ?? ''}"${describe(name, true)}>
<p id="${name}-hint" class="hint">${t('devContent.titleHint', { max: DEV_CONTENT_TITLE_MAX })}</p>${errorText(name)}</div>`;
      const price = (name: 'price_twd' | 'price_usd', label: string) =>
        html`<div><label for="${name}">${label} <span class="hint">${t('devContent.required')}</span></label>
<input id="${name}" name="${name}" type="number" inputmode="numeric" min="0" max="${DEV_CONTENT_PRICE_MAX}" step="1" required value="${values[name] ?? '0'}"${describe(name, true)}>
<p id="${name}-hint" class="hint">${t('devContent.priceHint')}</p>${errorText(name)}</div>`;
      body = html`<p>${t('devContent.signedInAs', { email: claims.email })}</p>
${view.created ? html`<p class="notice" role="status">${t('devContent.created', { title: title(view.created)[0]! })}</p>` : ''}
${list}
<h2 id="add">${t('devContent.createHeading')}</h2>
${
  errors.length
    ? html`<div class="errors" role="alert"><p>${t('devContent.errorSummary')}</p><ul>${errors.map(
        (e) => html`<li><a href="#${e.field === 'genre' ? 'genre-piece' : e.field}">${t(e.key, e.vars)}</a></li>`,
      )}</ul></div>`
    : ''
}
<form method="post" action="/dev-content/works" aria-labelledby="add" novalidate>
<input type="hidden" name="lang" value="${lang}">
${field('title_en', t('devContent.field.titleEn'), 'en')}
${field('title_zh', t('devContent.field.titleZh'), 'zh-TW')}
<fieldset${describe('genre', false)}><legend>${t('devContent.field.genre')} <span class="hint">${t('devContent.required')}</span></legend>
<div class="radio">${WORK_GENRES.map(
        (g) =>
          html`<label><input type="radio" id="genre-${g}" name="genre" value="${g}"${raw(values.genre === g ? ' checked' : '')} required>${t(`enum.workGenre.${g}`)}</label>`,
      )}</div>${errorText('genre')}</fieldset>
<div><label for="category_id">${t('devContent.field.category')} <span class="hint">${t('devContent.required')}</span></label>
<select id="category_id" name="category_id" required${describe('category_id', false)}><option value="">${t('devContent.chooseCategory')}</option>
${WORK_CATEGORIES.map((id) => html`<option value="${id}"${raw(values.category_id === String(id) ? ' selected' : '')}>${t(`enum.workCategory.${id}`)}</option>`)}
</select>${errorText('category_id')}</div>
${price('price_twd', t('devContent.field.priceTwd'))}
${price('price_usd', t('devContent.field.priceUsd'))}
<button type="submit">${t('devContent.submit')}</button>
</form>`;
    }
    const page = html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${errors.length ? `${t('devContent.errorTitle')} · ` : ''}${t('devContent.title')} · ${t('devContent.siteName')}</title><style>${raw(STYLE)}</style></head>
<body><header><div class="bar"><a class="brand" href="${here}">TCCF <span>${t('devContent.siteName')}</span></a>
<a href="/dev-content?lang=${other}" lang="${other}" hreflang="${other}">${t('devContent.switch')}</a></div></header>
<main><p class="banner" role="note">${t('devContent.banner')}</p>
<h1>${t('devContent.title')}</h1>
${body}
<p><a href="/${localePath(l)}/">${t('devContent.backToPortal')}</a></p></main></body></html>`;
    return c.html(page, status, {
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'",
      // Not no-referrer: with it the browser posts the form with `Origin: null`, which is refused.
      'referrer-policy': 'same-origin',
    });
  };

  app.get('/', async (c) => {
    const l = localeOf(c);
    const claims = await signedIn(c);
    const createdId = Number(c.req.query('created'));
    const created =
      claims && Number.isSafeInteger(createdId) && createdId > 0
        ? (await listDevContentWorks(db, claims.sub, [createdId]))[0]
        : undefined;
    return render(c, { l, claims, created });
  });

  app.post('/works', async (c) => {
    if (!sameOrigin(c)) return c.json({ code: 'forbidden', message: 'Cross-site request refused' }, 403);
    let form: Record<string, string>;
    try {
      const parsed = await c.req.parseBody();
      form = Object.fromEntries(
        Object.entries(parsed)
          .filter(([, v]) => typeof v === 'string')
          .map(([k, v]) => [k, String(v).slice(0, 4096)]),
      );
    } catch {
      form = {};
    }
    const l = localeOf(c, form.lang);
    const claims = await signedIn(c);
    if (!claims) return render(c, { l, claims }, 403);
    const { value, errors } = parseWorkForm(form);
    if (!value) return render(c, { l, claims, errors, values: form }, 400);
    const [row] = await db
      .insert(devContentWorks)
      .values({ ...value, ownerSubject: claims.sub, ownerEmail: claims.email })
      .returning({ id: devContentWorks.id });
    return c.redirect(`/dev-content?lang=${l === 'zh-TW' ? 'zh-TW' : 'en'}&created=${row!.id}`, 303);
  });

  return app;
}
