/**
 * What a registration kind is: everything the portal does differently for one event type, in one
 * object, declared by the kind's own module (`./badge-professional.ts` …) and listed by the
 * registry (`./index.ts`). The order core, the API route, the wizard page, the public pages, the
 * order pages, the exports and the back office read these properties; none of them names a type.
 */
import type { Struct } from 'superstruct';
import type { BadgeIdentity } from '@domain/badges';
import type { FormSection } from './form-schema';
import type { ParticipationType } from './market';
import type { EventType, RegistrationType, WizardStep } from './types';

/**
 * A struct of any shape. superstruct's `Struct` is invariant in its type, so a registry of kinds
 * with different bodies holds them this way; each kind's module keeps its struct's own type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStruct = Struct<any, any>;

/** The wizard island a kind's registration page loads (`registrations/new`, or the badge pages). */
export type WizardIsland = 'badge' | 'event' | 'market' | 'project' | 'story';

/**
 * What the public event page and the home card offer (spec §2): the registration wizard, the
 * Professional badge application, or nothing (free badges come through one-time links only).
 */
export type PublicAction = 'register' | 'applyBadge' | 'invitation';

export type RegistrationKind = {
  eventType: EventType;
  /** The home page's section (badges; events; Market and pitching). */
  group: 'badges' | 'events' | 'marketPitching';
  /** Registration types this kind takes; the first is the default. */
  registrationTypes: readonly [RegistrationType, ...RegistrationType[]];
  /**
   * The body of its registration (POST /orders?event=…), validated with this struct on the wizard
   * and the server alike; null: not registered there (badges have their own calls).
   */
  body: AnyStruct | null;
  /** The registration form the contact page edits before `formModifyExpiresAt` (PUT /registrations/{id}); null: none. */
  form: { type: 'exhibitor' | 'story'; struct: AnyStruct } | null;
  /** What a registration stores, as the back office's order view and the registrations export show it. */
  schema: readonly FormSection[];
  /** Wizard steps (spec §2). */
  steps: readonly WizardStep[];
  wizard: {
    island: WizardIsland;
    /** i18n key of each step's label. */
    stepLabels: Partial<Record<WizardStep, string>>;
    /** i18n key of a note the confirm step shows (the organiser's review, an online event). */
    note?: string;
  };
  publicAction: PublicAction;
  /** Held at the venue (a postal address), or online (a virtual location, no address). */
  attendance: 'venue' | 'online';
  /** The order summary: a link to the live page (online events), the badge pick-up schedule (whoever comes to the venue). */
  summary: { liveLink: boolean; pickupSchedule: boolean };
  /** Orders take one of the event's seats (capacity), given back when they close. */
  holdsSeat: boolean;
  /** `always`: the organiser approves every order before payment; `per_event`: when the event says so. */
  approval: 'always' | 'per_event';
  /** Items charged: one order = one item, or one item per selected work (pitching). */
  quantity: 'one' | 'per_work';
  /** One live registration per user and event, or several entries (pitching: its limits are per work). */
  entries: 'one' | 'several';
  /** `event`: the event's price list; `none`: free whatever the event says (its settings refuse a price). */
  price: 'event' | 'none';
  /**
   * A promotional price (Market online, spec §9): the original price the wizard shows struck
   * through when the event does not say, and what the price includes (an i18n key).
   */
  promotion?: { originalCentsTwd: number; note: string };
  /** Orders of this kind create the user's badge (one per user and per e-mail). */
  issuesBadge: boolean;
  /** Registering needs an issued badge first (`demonstration_invalid`). */
  requiresBadge: boolean;
  /** i18n key of the summary's confirmation message, and of the message once approved. */
  confirmationKey: string;
  approvedKey?: string;
  /** Whether the portal takes these registrations. */
  open: boolean;
  /** Where the order's pay and processing pages live. */
  pages: 'badge' | 'event';
  /**
   * Until approved, the order's summary, pay and processing pages send the registrant to the
   * pending page (Market online, spec §4).
   */
  pendingPage: boolean;
  /** Works chosen from the content site (Market and pitching). */
  works: boolean;
  /** Market: the participation types offered (spec §3 market_identity), and a note about them. */
  market?: { participationTypes: readonly ParticipationType[]; identityNote?: string };
  /** Pitching: how many works one entry takes at most (Story to Screen: one); null: up to the applicant's limit. */
  pitching?: { worksPerEntry: number | null };
  /** One-time free-badge links each settled order includes (the event may say otherwise), and their identity. */
  includedBadges: number;
  includedBadgeIdentity?: BadgeIdentity;
};

/** Declares a kind (its module's default export): checks the shape, keeps the literal types. */
export const defineKind = <K extends RegistrationKind>(kind: K): K => kind;
