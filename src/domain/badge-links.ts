/**
 * Free-badge links in bulk (the back office, issue 11): a batch of one-time links of one badge
 * identity, either a number of anonymous links or one per address of a pasted list (each bound to
 * its address and e-mailed to it), with one expiry. The same rules for the form and the API.
 */
import { array, enums, integer, object, optional, refine, size, string, type Infer } from 'superstruct';
import { BADGE_IDENTITIES } from './badges';
import { filledParams, IsoDateTime, OptionalText, QueryInt, UuidString } from './validation';

export const BADGE_LINK_LIMITS = {
  /** Links per batch: a press list or a partner's delegation, not the whole edition at once. */
  perBatch: 500,
  /** How far ahead a link may expire. */
  maxDays: 366,
  note: 200,
  email: 254,
} as const;

const DAY = 24 * 60 * 60 * 1000;
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** Whether a text is an e-mail address the links can be bound to. */
export const isLinkEmail = (value: string) => value.length <= BADGE_LINK_LIMITS.email && EMAIL.test(value);

/** A pasted list of addresses, read: the addresses (lower-cased, first occurrence kept), and what could not be read. */
export type EmailList = { emails: string[]; invalid: string[]; duplicates: number };

/**
 * Reads a pasted list: addresses separated by new lines, commas, semicolons or spaces, each
 * optionally as `Name <address>` (copied from a mail client). Addresses are compared and kept
 * lower-cased (sign-in e-mails are compared without case); a repeated one counts once.
 */
export function parseEmailList(text: string): EmailList {
  const emails: string[] = [];
  const invalid: string[] = [];
  let duplicates = 0;
  const seen = new Set<string>();
  // `"Chen, Ben" <addr>` and `Name <addr>` → `addr`, then split on separators.
  const tokens = text
    .replace(/"[^"\n]*"\s*</g, '<')
    .replace(/[^<>\n,;]*<([^<>]*)>/g, ' $1 ')
    .split(/[\s,;]+/)
    .map((t) => t.trim().replace(/^mailto:/i, ''))
    .filter(Boolean);
  for (const token of tokens) {
    const email = token.toLowerCase();
    if (!isLinkEmail(email)) {
      invalid.push(token);
      continue;
    }
    if (seen.has(email)) {
      duplicates++;
      continue;
    }
    seen.add(email);
    emails.push(email);
  }
  return { emails, invalid, duplicates };
}

const LinkEmail = refine(
  size(string(), 3, BADGE_LINK_LIMITS.email),
  'email',
  (v) => isLinkEmail(v.trim().toLowerCase()) || 'Enter a valid e-mail address',
);

/**
 * A batch to create (`POST /api/v1/admin/badge-links`, camelCase): an identity, then either
 * `count` anonymous links or `emails` (one link per address, distinct without case), and when
 * the links expire (ISO date-time, in the future, at most a year ahead: `batchIssues`).
 */
export const BadgeLinkBatchInput = refine(
  object({
    identity: enums(BADGE_IDENTITIES),
    count: optional(size(integer(), 1, BADGE_LINK_LIMITS.perBatch)),
    emails: optional(size(array(LinkEmail), 1, BADGE_LINK_LIMITS.perBatch)),
    expiresAt: IsoDateTime,
    note: OptionalText(BADGE_LINK_LIMITS.note),
  }),
  'batch',
  (v) => {
    if ((v.count === undefined) === (v.emails === undefined))
      return { path: ['count'], message: 'Give either count or emails' };
    if (v.emails) {
      const seen = new Set<string>();
      for (const [i, e] of v.emails.entries()) {
        const key = e.trim().toLowerCase();
        if (seen.has(key)) return { path: ['emails', String(i)], message: 'This address is already in the list' };
        seen.add(key);
      }
    }
    return true;
  },
);
export type BadgeLinkBatchInput = Infer<typeof BadgeLinkBatchInput>;

/** The expiry's rule, which needs the clock: after now, at most `maxDays` ahead. */
export function batchExpiryIssue(expiresAt: Date, now: Date): string | null {
  if (expiresAt.getTime() <= now.getTime()) return 'The links must expire in the future';
  if (expiresAt.getTime() > now.getTime() + BADGE_LINK_LIMITS.maxDays * DAY)
    return `The links may expire at most ${BADGE_LINK_LIMITS.maxDays} days ahead`;
  return null;
}

/**
 * How long a link made by the operator command lasts (`npm run badge-link -- --expires <days>`,
 * the operator API's `expires_days`): whole days from now, from one day to as far ahead as the
 * back office allows. 0 is refused rather than read as "today": a link that expired as it was made
 * could never be used, and one needed for an hour is a day's link revoked in the back office.
 */
export const LINK_EXPIRY_DAYS = { min: 1, max: BADGE_LINK_LIMITS.maxDays, fallback: 14 } as const;

/** The days of `--expires` (its text as typed), or the message that refuses them. */
export function linkExpiryDays(text: string): { ok: true; days: number } | { ok: false; message: string } {
  const days = Number(text.trim());
  if (text.trim() !== '' && Number.isInteger(days) && days >= LINK_EXPIRY_DAYS.min && days <= LINK_EXPIRY_DAYS.max)
    return { ok: true, days };
  return {
    ok: false,
    message: `--expires must be a whole number of days from ${LINK_EXPIRY_DAYS.min} to ${LINK_EXPIRY_DAYS.max} (the link works until that many days from now)`,
  };
}

/** What a link made by an organiser is now, for the list and its filter. */
export const BADGE_LINK_STATUSES = ['unused', 'used', 'revoked', 'expired'] as const;
export type BadgeLinkStatus = (typeof BADGE_LINK_STATUSES)[number];

/** A link's status: used and revoked are final; an unused link past its expiry is expired. */
export function badgeLinkStatus(
  link: { usedAt: Date | string | null; revokedAt: Date | string | null; expiresAt: Date | string },
  now: Date,
): BadgeLinkStatus {
  if (link.usedAt) return 'used';
  if (link.revokedAt) return 'revoked';
  if (new Date(link.expiresAt).getTime() < now.getTime()) return 'expired';
  return 'unused';
}

/** Links per page of the back office's list. */
export const BADGE_LINK_PAGE_SIZE = 100;

/** The links list's query (`GET /api/v1/admin/badge-links`): filters and a page. */
export const BadgeLinkQuery = object({
  identity: optional(enums(BADGE_IDENTITIES)),
  status: optional(enums(BADGE_LINK_STATUSES)),
  batch: optional(UuidString),
  /** Part of the address a link is bound to, or of the e-mail of who used it. */
  q: optional(size(string(), 0, 200)),
  page: optional(QueryInt(1, 100_000)),
  limit: optional(QueryInt(1, 1000)),
  lang: optional(string()),
});
export type BadgeLinkQuery = Infer<typeof BadgeLinkQuery>;

/** The list's query as the filter form sends it: empty fields dropped. */
export const badgeLinkParams = (params: URLSearchParams) =>
  filledParams(params, ['identity', 'status', 'batch', 'q', 'page']);
