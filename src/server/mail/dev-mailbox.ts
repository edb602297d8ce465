/**
 * DEVELOPMENT mailbox at /dev-mailbox: the database outbox as a web page, for people and browser
 * tests. On only when the portal keeps its mail (no SMTP_URL) and runs with the development
 * identity service (no external identity provider): anyone who reaches it reads every mail, exactly as anyone can
 * sign in as anyone on /dev-identity. Bilingual (?lang=, the stored language, the browser's).
 * A mail's HTML is shown in a sandboxed iframe (`srcdoc`, no scripts, no same origin).
 */
import { desc, eq, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { LOCALE_COOKIE, negotiateLocale, type Locale } from '@i18n/locales';
import type { Db } from '../db/client';
import { emails } from '../db/schema';
import { devPageStyle } from '../dev-page-style';
import { formatDateTime } from '@domain/format';
import { mt, type MessageKey } from './messages';
import { escapeHtml as e } from './render';

const LIMIT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/* Inline styles only: the page's CSP allows nothing else (and the mail's own HTML inherits it). */
const STYLE = `${devPageStyle('72rem')}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin:1rem 0}
label{display:block;font-weight:600}input{padding:.5rem;border:1px solid #737373;border-radius:.25rem;font:inherit;min-width:16rem}
.hint{font-size:.875rem;color:#525252;margin:.25rem 0 0}
button{padding:.55rem 1rem;background:#b23c00;color:#fff;border:0;border-radius:.25rem;font:inherit;font-weight:600;cursor:pointer}
a{color:#9a3412}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #171717;outline-offset:2px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;padding:1rem;border-radius:.25rem;margin:0}
dt{font-weight:600;color:#404040}dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:75vh;min-height:32rem;border:1px solid #d4d4d4;background:#fff;border-radius:.25rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid #d4d4d4;padding:1rem;border-radius:.25rem;font-size:.875rem}
.pending{color:#92400e;font-weight:600}
`;

/** The mailbox as a Hono app mounted at /dev-mailbox. */
export function createDevMailbox(options: { db: Db; from: string }) {
  const app = new Hono().basePath('/dev-mailbox');

  const localeOf = (c: Context): Locale =>
    negotiateLocale({
      query: c.req.query('lang'),
      stored: getCookie(c, LOCALE_COOKIE),
      acceptLanguage: c.req.header('accept-language'),
    });
  const langParam = (l: Locale) => (l === 'zh-TW' ? 'zh-TW' : 'en');

  const page = (c: Context, l: Locale, title: string, body: string, switchTo: string, status: 200 | 404 = 200) => {
    const t = (key: MessageKey) => e(mt(l, key));
    const other: Locale = l === 'en' ? 'zh-TW' : 'en';
    const html = `<!doctype html>
<html lang="${l}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)} · ${t('mailbox.title')}</title><style>${STYLE}</style></head>
<body><header><div class="bar"><a class="brand" href="/dev-mailbox?lang=${langParam(l)}">TCCF <span>${t('mailbox.title')}</span></a>
<a href="${e(switchTo)}" lang="${other}" hreflang="${other}">${t('mailbox.switch')}</a></div></header>
<main>${body}</main></body></html>`;
    return c.html(html, status, {
      'cache-control': 'no-store',
      // Nothing runs here, and the mail's HTML (srcdoc inherits this policy) loads nothing remote.
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; form-action 'self'; base-uri 'none'",
      'referrer-policy': 'no-referrer',
    });
  };

  const withLang = (path: string, query: Record<string, string | undefined>) => {
    const q = new URLSearchParams(Object.entries(query).filter((x): x is [string, string] => !!x[1]));
    const s = q.toString();
    return `${path}${s ? `?${s}` : ''}`;
  };

  app.get('/', async (c) => {
    const l = localeOf(c);
    const t = (key: MessageKey, values?: Record<string, string | number>) => e(mt(l, key, values));
    const to = (c.req.query('to') ?? '').trim().slice(0, 254);
    const rows = await options.db
      .select({
        id: emails.id,
        recipient: emails.recipient,
        subject: emails.subject,
        locale: emails.locale,
        status: emails.status,
        createdAt: emails.createdAt,
      })
      .from(emails)
      .where(to ? sql`lower(${emails.recipient}) = ${to.toLowerCase()}` : undefined)
      .orderBy(desc(emails.createdAt), desc(emails.id))
      .limit(LIMIT);
    const language = (locale: Locale | null) =>
      t(locale ? (`mailbox.lang.${locale}` as MessageKey) : 'mailbox.lang.both');
    const list = rows.length
      ? `<div class="scroll"><table><caption>${t('mailbox.caption')}</caption><thead><tr>
<th scope="col">${t('mailbox.col.date')}</th><th scope="col">${t('mailbox.col.to')}</th><th scope="col">${t('mailbox.col.subject')}</th>
<th scope="col">${t('mailbox.col.language')}</th><th scope="col">${t('mailbox.col.status')}</th></tr></thead><tbody>
${rows
  .map(
    (r) => `<tr><td>${e(formatDateTime(r.createdAt))}</td><td>${e(r.recipient)}</td>
<td><a href="${e(withLang(`/dev-mailbox/${r.id}`, { lang: langParam(l) }))}">${e(r.subject)}</a></td>
<td>${language(r.locale)}</td><td${r.status === 'pending' ? ' class="pending"' : ''}>${t(`mailbox.status.${r.status}`)}</td></tr>`,
  )
  .join('\n')}
</tbody></table></div>`
      : `<p>${t('mailbox.empty')}</p>`;
    const body = `<h1>${t('mailbox.title')}</h1>
<p class="banner" role="note">${t('mailbox.banner')}</p>
<form method="get" action="/dev-mailbox"><input type="hidden" name="lang" value="${langParam(l)}">
<div><label for="to">${t('mailbox.filter')}</label><input id="to" name="to" type="email" value="${e(to)}" aria-describedby="to-hint" autocomplete="off">
<p id="to-hint" class="hint">${t('mailbox.filterHint')}</p></div><button type="submit">${t('mailbox.apply')}</button></form>
${to ? `<p><a href="${e(withLang('/dev-mailbox', { lang: langParam(l) }))}">${t('mailbox.showAll')}</a></p>` : ''}
<p>${t('mailbox.count', { count: rows.length })}</p>
${list}`;
    return page(
      c,
      l,
      mt(l, 'mailbox.title'),
      body,
      withLang('/dev-mailbox', { lang: l === 'en' ? 'zh-TW' : 'en', to: to || undefined }),
    );
  });

  app.get('/:id', async (c) => {
    const l = localeOf(c);
    const t = (key: MessageKey, values?: Record<string, string | number>) => e(mt(l, key, values));
    const id = c.req.param('id');
    const [mail] = UUID.test(id) ? await options.db.select().from(emails).where(eq(emails.id, id)).limit(1) : [];
    const switchTo = withLang(`/dev-mailbox/${encodeURIComponent(id)}`, { lang: l === 'en' ? 'zh-TW' : 'en' });
    const back = `<p><a href="${e(withLang('/dev-mailbox', { lang: langParam(l) }))}">${t('mailbox.back')}</a></p>`;
    if (!mail) return page(c, l, mt(l, 'mailbox.notFound'), `${back}<h1>${t('mailbox.notFound')}</h1>`, switchTo, 404);
    const row = (key: MessageKey, value: string | null | undefined) =>
      value ? `<dt>${t(key)}</dt><dd>${e(value)}</dd>` : '';
    // Links in the mail open a new tab: the portal's pages refuse to be framed.
    const srcdoc = mail.html.replace(/<head>/i, '<head><base target="_blank">');
    const body = `${back}<h1>${e(mail.subject)}</h1>
<dl>${row('mailbox.from', options.from)}${row('mailbox.to', mail.recipient)}${row('mailbox.subject', mail.subject)}
${row('mailbox.date', formatDateTime(mail.createdAt))}${row('mailbox.sentAt', mail.sentAt ? formatDateTime(mail.sentAt) : mt(l, 'mailbox.status.pending'))}
${row('mailbox.col.language', mt(l, mail.locale ? (`mailbox.lang.${mail.locale}` as MessageKey) : 'mailbox.lang.both'))}
${row('mailbox.template', mail.template)}${row('mailbox.messageId', mail.messageId)}${row('mailbox.attempts', String(mail.attempts))}${row('mailbox.lastError', mail.lastError)}</dl>
<h2>${t('mailbox.html')}</h2>
<iframe title="${t('mailbox.frameTitle', { subject: mail.subject })}" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${e(srcdoc)}"></iframe>
<h2>${t('mailbox.text')}</h2>
<pre>${e(mail.text)}</pre>`;
    return page(c, l, mail.subject, body, switchTo);
  });

  return app;
}
