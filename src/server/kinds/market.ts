/**
 * The Market kinds on the server (spec §3 Exhibitor registration form): the participation type the
 * event offers and the registration type it makes, the company's country and logo, the works; and
 * the contact page's edits of the exhibitor form.
 */
import { and, eq } from 'drizzle-orm';
import { DomainError } from '@domain/errors';
import {
  marketRegistrationType,
  splitExhibitorForm,
  type ExhibitorForm,
  type MarketRegistration,
  type ParticipationType,
} from '@domain/kinds/market';
import { countryByIso } from '@domain/reference/countries';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import { includedBadges } from './badges';
import type { ServerKind } from './parts';

const issue = (path: string, message: string) => ({ issues: [{ path, message }] });

/** The company country must be one of the reference data's (ISO 3166-1 alpha-3). */
function checkCountry(iso: string) {
  if (!countryByIso(iso))
    throw new DomainError('invalid_country', undefined, issue('company_country', `Unknown country code ${iso}`));
}

/** The company logo must be the user's own upload for that purpose. */
async function checkLogo(db: Db, userId: string, fileId: string | null | undefined) {
  if (!fileId) return;
  const [file] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.ownerId, userId), eq(files.purpose, 'company_logo')))
    .limit(1);
  if (!file) throw new DomainError('invalid_logo', undefined, issue('company_logo_file_id', 'Upload the logo again'));
}

export const MARKET_SERVER: ServerKind = {
  /** The participation type the event offers, its registration type, the logo, the works. */
  async place(db, kind, event, input) {
    const body = input.body as MarketRegistration;
    if (!input.resolveWorks) throw new Error('A Market registration needs resolveWorks');
    const offered = kind.market?.participationTypes ?? [];
    const identity = body.marketIdentity as ParticipationType;
    if (!offered.includes(identity))
      throw new DomainError(
        'invalid_market_identity',
        `This event offers participation type ${offered.join(', ')}`,
        issue('market_identity', `Expected one of ${offered.join(', ')}`),
      );
    const registrationType = marketRegistrationType(
      kind.registrationTypes[0],
      event.offeredRegistrationTypes,
      identity,
    );
    if (input.requested && input.requested !== registrationType)
      throw new DomainError(
        'invalid_registration_type',
        `Participation type ${identity} registers as ${registrationType}`,
      );
    checkCountry(body.companyCountry);
    await checkLogo(db, input.userId, body.companyLogoFileId);
    const ids = [...new Set(body.selectedContents.map(Number))];
    const contents = await input.resolveWorks(ids);
    const { agreeTerms, agreeDisclosure, marketIdentity, selectedContents: _works, ...exhibitor } = body;
    const { form, contact } = splitExhibitorForm(exhibitor);
    return {
      registrationType,
      form: { ...form, marketIdentity, agreeTerms, agreeDisclosure },
      contact,
      contents,
    };
  },
  /** The exhibitor form's own checks (country, logo); the contact info is kept apart. */
  async editForm(db, userId, value) {
    const exhibitor = value as ExhibitorForm;
    checkCountry(exhibitor.companyCountry);
    await checkLogo(db, userId, exhibitor.companyLogoFileId);
    return splitExhibitorForm(exhibitor);
  },
  onChange: [includedBadges],
};
