import { displayIdentity, signInHref } from '@lib/auth';
import { contentSiteHref, portalConfig } from '@lib/portal-config.server';
import { stepFromSearch } from '@lib/wizard';
import type { RegistrationKind } from '@domain/kinds';
import { stepLabels } from '@lib/kind-text';
import { PITCHING_STEPS } from './pitching-steps';
import { islandProps } from '@lib/island-props.server';

/** The messages the pitching islands show (works picker, story form, invoice block, enumerations). */
const PITCHING_MESSAGES = [
  'pitching.',
  'wizard.',
  'form.',
  'dialog.',
  'upload.',
  'works.',
  'pay.receipt',
  'pay.invoiceTitle',
  'pay.ubn',
  'enum.storyGenre.',
  'enum.workCategory.',
  'enum.workGenre.',
  'signin.button',
  'apiError.1',
  'apiError.pitching_work_limit',
  'apiError.mixed_work_genres',
  'apiError.one_work_per_story',
  'apiError.work_not_found',
  'apiError.registration_closed',
  'apiError.registration_not_open',
  'apiError.content_site_unavailable',
  'apiError.invalid_upload',
];

/** The PitchingWizard props of a pitching event's registration page: what its kind says, translated. */
export function pitchingWizardProps(
  locals: App.Locals,
  url: URL,
  event: { slug: string; priceCentsTwd: number; priceCentsUsd: number },
  kind: RegistrationKind,
) {
  const identity = displayIdentity(locals.token);
  return {
    ...islandProps(locals.locale, PITCHING_MESSAGES),
    event: {
      slug: event.slug,
      unitTwd: event.priceCentsTwd,
      unitUsd: event.priceCentsUsd,
      worksPerEntry: kind.pitching?.worksPerEntry ?? null,
    },
    steps: stepLabels(locals.t, kind),
    signedIn: !!identity,
    email: identity?.email ?? '',
    signInHref: signInHref(locals.locale, url.pathname),
    uploadHref: contentSiteHref(locals.locale),
    conferenceHome: portalConfig().conferenceHomeUrl,
    initialStep: stepFromSearch(url.search, PITCHING_STEPS),
  };
}

/** The contact page's messages of the story editor (the story form, the uploader, the page). */
const STORY_EDITOR_MESSAGES = [
  'pitching.form.',
  'form.',
  'dialog.',
  'upload.',
  'enum.storyGenre.',
  'contactPage.',
  'apiError.invalid_upload',
];

/**
 * The StoryEditor props: the stored story form with its files as the uploader shows them (their
 * names from the registration; the files are served at /api/v1/files/{id}).
 */
export function storyEditorProps(
  locals: App.Locals,
  registration: { id: string; form: Record<string, unknown>; files?: Record<string, unknown> },
  summaryHref: string,
) {
  const files = registration.files ?? {};
  return {
    ...islandProps(locals.locale, STORY_EDITOR_MESSAGES),
    registrationId: registration.id,
    initial: {
      ...registration.form,
      storyOutline: files.storyOutlineFileId ?? null,
      relationImage: files.relationImageFileId ?? null,
    },
    summaryHref,
  };
}
