/**
 * Operator command: a one-time free-badge link.
 *
 *   npm run badge-link -- --type <identity> [--email <addr>] [--expires <days>]
 *
 * identity: professional, vip, exhibitor-pitching, exhibitor-market, exhibitor-innovations.
 * --email restricts the link to that sign-in e-mail and e-mails the link to it (both languages;
 * the server's mail worker sends it); --expires is whole days from now, 1 to 366 (default 14).
 * 0 is refused: a link that expired as it was made could not be used (end a link early by
 * revoking it in the back office).
 * Prints the link in both languages, on SITE_URL (default http://localhost:$PORT).
 *
 * Uses the server's configuration and database (DATABASE_URL, or PGlite under DATA_DIR). PGlite
 * cannot be shared between processes: while the portal server has it open, the command goes
 * through the server's operator API when it has the operator token (PORTAL_URL / OPERATOR_TOKEN,
 * or the development token in DATA_DIR), and otherwise says that the database is in use (stop
 * the server first). Details in scripts/lib.ts.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_TIMEZONE } from '@domain/format';
import { BADGE_IDENTITIES, identityFromLinkType, linkTypeOf, type BadgeIdentity } from '@domain/badges';
import { linkExpiryDays, LINK_EXPIRY_DAYS } from '@domain/badge-links';
import { mailSettings } from '@server/mail/outbox';
import { createBadgeLinkBatch } from '@server/badges/badge-link-batches';
import { localTime, operatorName, runCommand, UsageError } from './lib';

const TYPES = BADGE_IDENTITIES.map(linkTypeOf);
const USAGE = `usage: npm run badge-link -- --type <${TYPES.join('|')}> [--email <addr>] [--expires <days>]
  --expires  whole days the link works, from now: ${LINK_EXPIRY_DAYS.min} to ${LINK_EXPIRY_DAYS.max} (default ${LINK_EXPIRY_DAYS.fallback});
             0 is refused (the link would expire at once: revoke one in the back office to end it early)`;
const DAY = 24 * 60 * 60 * 1000;

function parse() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      type: { type: 'string' },
      email: { type: 'string' },
      expires: { type: 'string', default: String(LINK_EXPIRY_DAYS.fallback) },
    },
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  if (!values.type) throw new UsageError('--type is required');
  const identity = identityFromLinkType(values.type);
  if (!identity) throw new UsageError(`unknown --type ${values.type}; use one of ${TYPES.join(', ')}`);
  const email = values.email?.trim();
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new UsageError(`--email ${values.email} is not an e-mail address`);
  const expiry = linkExpiryDays(values.expires);
  if (!expiry.ok) throw new UsageError(expiry.message);
  return { identity, email, days: expiry.days };
}

function print(
  link: {
    identity: BadgeIdentity;
    email: string | undefined;
    expiresAt: Date;
    en: string;
    zh: string;
    emailed: boolean;
  },
  timeZone: string,
) {
  console.log(
    `One-time ${link.identity} badge link${link.email ? ` for ${link.email}` : ''}, valid until ${localTime(link.expiresAt, timeZone)} (${timeZone}):`,
  );
  console.log(`  en:    ${link.en}`);
  console.log(`  zh-tw: ${link.zh}`);
  if (link.emailed) console.log(`E-mailed to ${link.email} (in English and Chinese; queued for the mail worker).`);
}

await runCommand(USAGE, parse, {
  async db({ db }, { identity, email, days }, config) {
    const expiresAt = new Date(Date.now() + days * DAY);
    const site = config.SITE_URL ?? `http://localhost:${config.PORT}`;
    // A batch of one, recorded with the operator's name (the back office lists it).
    const {
      links: [link],
    } = await createBadgeLinkBatch(
      db,
      { identity, ...(email ? { emails: [email] } : { count: 1 }), expiresAt, createdBy: operatorName() },
      { origin: site, from: mailSettings(config).from },
      new Date(),
    );
    const urls = link!.urls;
    const emailed = link!.emailed;
    print({ identity, email, expiresAt, en: urls.en, zh: urls['zh-TW'], emailed }, DEFAULT_TIMEZONE);
  },
  async api(call, { identity, email, days }) {
    const link = (await call('POST', '/badge-links', {
      type: linkTypeOf(identity),
      ...(email ? { email } : {}),
      expires_days: days,
    })) as { expires_at: string; url_en: string; url_zh: string; emailed?: boolean };
    print(
      {
        identity,
        email,
        expiresAt: new Date(link.expires_at),
        en: link.url_en,
        zh: link.url_zh,
        emailed: link.emailed === true,
      },
      DEFAULT_TIMEZONE,
    );
  },
});
