import { apiHref, type ApiClient } from '@lib/api';
import type { Registration } from '@domain/contract';
import { displayIdentity, signInHref } from '@lib/auth';
import { contentSiteHref, portalConfig } from '@lib/portal-config.server';
import { stepFromSearch } from '@lib/wizard';
import type { RegistrationKind } from '@domain/kinds';
import { load } from '@lib/load';
import { stepLabels, kindText } from '@lib/kind-text';
import { countryOptions } from './countries.server';
import { marketStepNames } from './MarketWizard';
import { islandProps } from '@lib/island-props.server';

/** The messages the Market islands show (the works picker's and the enumerations' included). */
const MARKET_MESSAGES = [
  'market.',
  'wizard.',
  'form.',
  'dialog.',
  'upload.',
  'works.',
  'enum.participation.',
  'enum.companyType.',
  'enum.businessType.',
  'enum.workCategory.',
  'enum.workGenre.',
  'signin.button',
  'eventReg.capacityFull',
  'eventReg.closed',
  'eventReg.notOpen',
];

/** The MarketWizard props of a Market event's registration page: what its kind says, translated. */
export function marketWizardProps(locals: App.Locals, url: URL, event: { slug: string }, kind: RegistrationKind) {
  const identity = displayIdentity(locals.token);
  const review = kind.approval === 'always';
  const note = kind.market?.identityNote;
  return {
    ...islandProps(locals.locale, MARKET_MESSAGES),
    event: { slug: event.slug, participationTypes: kind.market?.participationTypes ?? [], review },
    steps: stepLabels(locals.t, kind),
    ...(note ? { identityNote: kindText(locals.t, note) } : {}),
    signedIn: !!identity,
    email: identity?.email ?? '',
    signInHref: signInHref(locals.locale, url.pathname),
    uploadHref: contentSiteHref(locals.locale),
    conferenceHome: portalConfig().conferenceHomeUrl,
    countries: countryOptions(locals.locale),
    initialStep: stepFromSearch(url.search, marketStepNames(review)),
  };
}

/** A registration as the API answers it (the contract's). */
export type { Registration };

/** The signed-in user's registration (404: none, or another user's). */
export const loadRegistration = (api: ApiClient, id: string) =>
  load(async () => (await api.registrations.get(id)).data);

/**
 * The ContactEditor props: the stored form and contact info merged, the logo as the uploader
 * shows a file (the registration keeps its id; the file is served at `apiHref.file(id)`).
 */
export function contactEditorProps(locals: App.Locals, registration: Registration, summaryHref: string) {
  const { form, contact } = registration;
  const logo = registration.files?.companyLogoFileId ?? null;
  const logoId = typeof form.companyLogoFileId === 'string' ? form.companyLogoFileId : null;
  return {
    ...islandProps(locals.locale, [...MARKET_MESSAGES, 'contactPage.', 'apiError.invalid_upload']),
    registrationId: registration.id,
    initial: {
      ...form,
      ...contact,
      companyLogo:
        logo ?? (logoId ? { uid: logoId, name: locals.t('contactPage.currentLogo'), url: apiHref.file(logoId) } : null),
      directoryListed: registration.directoryListed,
    },
    countries: countryOptions(locals.locale),
    summaryHref,
  };
}
