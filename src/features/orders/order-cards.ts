/**
 * The order list's cards (up to 100, spec §9) as one string of HTML: the markup Astro rendered
 * from OrderList.astro's template, byte for byte (order-cards.test.ts compares it with that
 * template's output, both locales), without a template render per card. Astro's renderer made
 * each card a tagged template of ~20 expressions, each one checked, escaped and buffered, and
 * each optional field of the card a Fragment component with its slot; for 100 cards that was most
 * of the page's rendering and much of its garbage (decision 074).
 *
 * Every value from the order is escaped here as Astro escapes it: text with `escapeText`
 * (& < > ' "), attribute values with `escapeAttr` (& and "). Labels are the catalogue's, escaped
 * once per locale and kept (the catalogues never change under a running server).
 */
import { formatDateRange } from '@domain/format';
import { summaryPath } from '@domain/kinds/pages';
import { displayedPaymentStatus, headlineStatus, registrationStatus, type Order } from '@domain/orders';
import type { MessageKey, Translate } from '@i18n/i18n';
import type { Locale } from '@i18n/locales';
import { localized } from '@lib/routes';
import { HEADLINE_TONE } from './headline';

const TEXT_SPECIAL = /[&<>'"]/;
const TEXT_SPECIALS = /[&<>'"]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const ATTR_SPECIAL = /[&"]/;

/** Text content, escaped as Astro escapes an expression's string (`escapeHTML`). */
export const escapeText = (value: string): string =>
  TEXT_SPECIAL.test(value) ? value.replace(TEXT_SPECIALS, (c) => ENTITY[c]!) : value;

/** A double-quoted attribute's value, escaped as Astro's `addAttribute` escapes it. */
export const escapeAttr = (value: string): string =>
  ATTR_SPECIAL.test(value) ? value.replaceAll('&', '&amp;').replaceAll('"', '&quot;') : value;

/** The labels every card shares, escaped, by translator (one a locale). */
type CardLabels = {
  /** A label without parameters, escaped (cached by key). */
  get: (key: MessageKey) => string;
  /** " of order {{orderNo}}", escaped, around the order number. */
  ofOrder: readonly [before: string, after: string];
  /** The works' separator, unescaped (the joined titles are escaped together). */
  listSeparator: string;
};
const labelsByTranslator = new WeakMap<Translate, CardLabels>();

function labelsOf(t: Translate): CardLabels {
  let labels = labelsByTranslator.get(t);
  if (labels) return labels;
  const seen = new Map<string, string>();
  const [before, after = ''] = t('orders.ofOrder', { orderNo: '\u0000' }).split('\u0000');
  labels = {
    get: (key) => {
      let text = seen.get(key);
      // Keys are the catalogue's statuses and field names: a bounded set.
      if (text === undefined) seen.set(key, (text = escapeText(t(key))));
      return text;
    },
    ofOrder: [escapeText(before!), escapeText(after)],
    listSeparator: t('punct.listSeparator'),
  };
  labelsByTranslator.set(t, labels);
  return labels;
}

/** One card's term and its definition (both already escaped). */
const field = (term: string, definition: string) => `<dt>${term}</dt><dd>${definition}</dd>`;

/**
 * The list of order cards, `<ul>` included: per card the event's name as its heading (the
 * article's label), the headline pill, the order number, dates, registration, payment and
 * approval statuses, the works, a rejection's reason, and the link to the order's summary.
 */
export function renderOrderCards(orders: readonly Order[], t: Translate, locale: Locale): string {
  const { get, ofOrder, listSeparator } = labelsOf(t);
  let html = '<ul class="grid gap-4 md:grid-cols-2">';
  for (const order of orders) {
    const headline = headlineStatus(order);
    const id = escapeAttr(`order-${order.orderNo}`);
    const orderNo = escapeText(order.orderNo);
    html +=
      `<li><article class="order-card" aria-labelledby="${id}"><div><h2 id="${id}">${escapeText(order.eventName)}</h2>` +
      `<span class="${escapeAttr(`pill ${HEADLINE_TONE[headline]}`)}" data-headline="${escapeAttr(headline)}">` +
      `${get(`status.headline.${headline}`)}</span></div><dl>` +
      `<dt>${get('orders.orderNo')}</dt><dd class="font-mono">${orderNo}</dd>` +
      field(get('orders.eventDates'), escapeText(formatDateRange(order.eventTime, order.eventEndAt))) +
      field(get('orders.registrationStatus'), get(`status.registration.${registrationStatus(order.paymentStatus)}`));
    // The headline (approval, transfer checking) leads; the spec's registration status stays a field.
    if (order.paymentStatus)
      html += field(get('orders.paymentStatus'), get(`status.payment.${displayedPaymentStatus(order.paymentStatus)}`));
    if (order.approvalStatus)
      html += field(get('orders.approvalStatus'), get(`status.approval.${order.approvalStatus}`));
    if (order.contents.length > 0)
      html += field(get('summary.works'), escapeText(order.contents.map((w) => w.title).join(listSeparator)));
    if (order.approvalStatus === 'rejected' && order.rejectedReason)
      html += field(get('orders.rejectedReason'), escapeText(order.rejectedReason));
    html +=
      `</dl><a class="btn-secondary" href="${escapeAttr(localized(locale, summaryPath(order)))}">` +
      `${get('orders.viewDetails')}<span class="sr-only">${ofOrder[0]}${orderNo}${ofOrder[1]}</span></a></article></li>`;
  }
  return `${html}</ul>`;
}
