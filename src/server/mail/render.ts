/**
 * Turns the content of an e-mail (per language: a subject, a heading and blocks) into its
 * plain-text and HTML parts, with the conference's branding. One language when the registrant's
 * is known, else both (English first), each section marked with its `lang`. Everything that comes
 * from data (names, reasons, titles) is escaped in the HTML part; links must be http(s).
 */
import { LOCALES, type Locale } from '@i18n/locales';
import { mt } from './messages';

export type Block =
  | { type: 'p'; text: string }
  /** Smaller print under the main text. */
  | { type: 'note'; text: string }
  /** Label → value pairs (order number, amount…); rows without a value are left out. */
  | { type: 'facts'; rows: { label: string; value: string | null | undefined }[] }
  /** The mail's call to action, with its address spelled out for clients that hide buttons. */
  | { type: 'button'; label: string; url: string }
  | { type: 'list'; heading: string; items: string[] }
  /** Labelled links, each address spelled out (the included badges' one-time links). */
  | { type: 'links'; heading: string; items: { label: string; url: string }[] };

/** One language's content of a mail. */
export type MailContent = { subject: string; heading: string; blocks: Block[] };

/** The language of a mail: one locale, or null for both. */
export type MailLocale = Locale | null;

export type RenderedMail = { subject: string; text: string; html: string; locale: MailLocale };

/** Brand colours: the conference orange (accent, large wordmark) and a darker orange that passes AA for button text. */
export const BRAND = { orange: '#ff5e00', action: '#b23c00', ink: '#171717', muted: '#525252' } as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Only absolute http(s) links go into a mail. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`Refusing a ${parsed.protocol} link`);
  return parsed.toString();
}

const rows = (block: Extract<Block, { type: 'facts' }>) =>
  block.rows.filter((r): r is { label: string; value: string } => !!r.value);

function textBlock(block: Block, locale: Locale): string {
  // Chinese text takes the full-width colon (glossary).
  const colon = locale === 'zh-TW' ? '：' : ': ';
  switch (block.type) {
    case 'p':
    case 'note':
      return block.text;
    case 'facts':
      return rows(block)
        .map((r) => `${r.label}${colon}${r.value}`)
        .join('\n');
    case 'button':
      return `${block.label}${colon}${safeUrl(block.url)}`;
    case 'list':
      return [block.heading, ...block.items.map((i) => `- ${i}`)].join('\n');
    case 'links':
      return [block.heading, ...block.items.map((i) => `- ${i.label}: ${i.url}`)].join('\n');
  }
}

const FONT =
  "font-family:'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans TC','PingFang TC','Microsoft JhengHei',sans-serif";

function htmlBlock(block: Block, locale: Locale): string {
  switch (block.type) {
    case 'p':
      return `<p style="margin:0 0 16px;font-size:16px;line-height:1.6">${escapeHtml(block.text)}</p>`;
    case 'note':
      return `<p style="margin:0 0 16px;font-size:14px;line-height:1.6;color:${BRAND.muted}">${escapeHtml(block.text)}</p>`;
    case 'facts': {
      const body = rows(block)
        .map(
          (r) =>
            `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:8px 16px 8px 0;font-weight:600;color:${BRAND.muted}">${escapeHtml(r.label)}</th>` +
            `<td style="padding:8px 0;color:${BRAND.ink};overflow-wrap:anywhere;word-break:break-word">${escapeHtml(r.value)}</td></tr>`,
        )
        .join('');
      return `<table style="border-collapse:collapse;margin:0 0 20px;font-size:15px;line-height:1.5;border-top:1px solid #e5e5e5">${body}</table>`;
    }
    case 'button': {
      const url = escapeHtml(safeUrl(block.url));
      return (
        `<p style="margin:8px 0 12px"><a href="${url}" style="display:inline-block;background:${BRAND.action};color:#ffffff;font-weight:600;font-size:16px;text-decoration:none;padding:12px 22px;border-radius:6px">${escapeHtml(block.label)}</a></p>` +
        `<p style="margin:0 0 20px;font-size:13px;line-height:1.5;color:${BRAND.muted}">${escapeHtml(mt(locale, 'link.fallback'))}<br><a href="${url}" style="color:${BRAND.action};word-break:break-all">${url}</a></p>`
      );
    }
    case 'list':
      return (
        `<h2 style="margin:8px 0 8px;font-size:16px;color:${BRAND.ink}">${escapeHtml(block.heading)}</h2>` +
        `<ul style="margin:0 0 20px;padding-left:20px;font-size:15px;line-height:1.6">${block.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`
      );
    case 'links':
      return (
        `<h2 style="margin:8px 0 8px;font-size:16px;color:${BRAND.ink}">${escapeHtml(block.heading)}</h2>` +
        `<ul style="margin:0 0 20px;padding-left:20px;font-size:15px;line-height:1.6">${block.items
          .map(
            (i) =>
              `<li>${escapeHtml(i.label)}: <a href="${escapeHtml(safeUrl(i.url))}" style="color:${BRAND.action};word-break:break-all">${escapeHtml(i.url)}</a></li>`,
          )
          .join('')}</ul>`
      );
  }
}

/**
 * Renders a mail from its content in each language. `locale` null: both languages, English
 * first; the subject then joins both subjects.
 */
export function renderMail(
  content: (locale: Locale) => MailContent,
  locale: MailLocale,
  recipient: string,
): RenderedMail {
  const locales: Locale[] = locale ? [locale] : [...LOCALES];
  const sections = locales.map((l) => ({ locale: l, ...content(l) }));
  const subject = sections.map((s) => s.subject).join(' / ');

  const text =
    [
      locales.map((l) => mt(l, 'brand.line')).join(' / '),
      ...sections.map((s) => [s.heading, ...s.blocks.map((b) => textBlock(b, s.locale))].join('\n\n')),
      locales
        .map((l) =>
          [mt(l, 'footer.automatic'), mt(l, 'footer.why', { email: recipient }), mt(l, 'footer.contact')].join('\n'),
        )
        .join('\n\n'),
    ].join('\n\n--------------------------------\n\n') + '\n';

  const section = (s: (typeof sections)[number], index: number) =>
    `<tr><td class="px" lang="${s.locale}" style="padding:28px 32px 12px;${index > 0 ? 'border-top:1px solid #e5e5e5;' : ''}">` +
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.35;color:${BRAND.ink}">${escapeHtml(s.heading)}</h1>` +
    s.blocks.map((b) => htmlBlock(b, s.locale)).join('') +
    `</td></tr>`;
  const footer = locales
    .map(
      (l) =>
        `<p lang="${l}" style="margin:0 0 8px">${[mt(l, 'footer.automatic'), mt(l, 'footer.why', { email: recipient }), mt(l, 'footer.contact')].map(escapeHtml).join(l === 'zh-TW' ? '' : ' ')}<br>${escapeHtml(mt(l, 'footer.organiser'))}</p>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="${locales[0]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title>
<style>@media (max-width:480px){.px{padding-left:16px!important;padding-right:16px!important}.outer{padding:12px 4px!important}}</style></head>
<body style="margin:0;padding:0;background:#f5f5f5;color:${BRAND.ink};${FONT}">
<main style="display:block">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f5f5"><tr><td class="outer" align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-top:6px solid ${BRAND.orange};border-radius:4px">
<tr><td class="px" style="padding:20px 32px;border-bottom:1px solid #e5e5e5"><span style="font-size:28px;font-weight:800;letter-spacing:1px;color:${BRAND.orange}">${escapeHtml(mt('en', 'brand.name'))}</span> <span style="font-size:14px;color:${BRAND.muted}">${locales.map((l) => `<span lang="${l}">${escapeHtml(mt(l, 'brand.tagline'))}</span>`).join(' / ')}</span></td></tr>
${sections.map(section).join('\n')}
<tr><td class="px" style="padding:16px 32px 20px;background:#fafafa;border-top:1px solid #e5e5e5;font-size:13px;line-height:1.6;color:${BRAND.muted}">${footer}</td></tr>
</table></td></tr></table>
</main>
</body></html>
`;
  return { subject, text, html, locale };
}
