/**
 * The badge kinds' shared parts (Professional and free; spec §2 "Badge free", "Badge professional"):
 * the application they store (applicant, printed badge, photo), the wizard's step labels, and what
 * both are. Badges have their own calls (PUT /demonstration, POST /demonstration_order).
 */
import { field, type FormSection, type ValueField } from './form-schema';
import type { RegistrationKind } from './kind';

const badgeField = (key: string): ValueField => field('badge.field.', key);

/** A badge application as stored: its identity, the applicant, the printed badge, the photo. */
export const BADGE_SECTION: FormSection = {
  id: 'badge',
  fields: [
    field('admin.field.', 'identity', 'enum', { names: 'identity.' }),
    {
      key: 'applicant',
      label: 'badge.applicantInfo',
      kind: 'group',
      fields: ['nameZh', 'nameEn', 'companyNameZh', 'companyNameEn', 'contactPhone', 'contactEmail'].map(badgeField),
    },
    {
      key: 'badge',
      label: 'badge.printedInfo',
      kind: 'group',
      fields: ['nameZh', 'nameEn', 'companyNameZh', 'companyNameEn'].map(badgeField),
    },
    field('admin.field.', 'sameAsApplicant', 'yesNo'),
    field('admin.field.', 'personalPhotoFileId', 'file'),
  ],
};

/** The badge wizard's step labels. */
export const BADGE_STEP_LABELS = {
  check_identity: 'wizard.checkIdentity',
  fill_form: 'wizard.fillForm',
  pay: 'wizard.pay',
  completed: 'wizard.completed',
} as const;

/** What both badge kinds are. */
export const BADGE_KIND = {
  group: 'badges',
  // Applied for (PUT /demonstration_order) or claimed (PUT /demonstration), not registered.
  body: null,
  form: null,
  schema: [BADGE_SECTION],
  attendance: 'venue',
  // Nothing to show beside the badge: its page has the QR code and the pick-up schedule.
  summary: { liveLink: false, pickupSchedule: true },
  holdsSeat: false,
  approval: 'per_event',
  quantity: 'one',
  entries: 'one',
  issuesBadge: true,
  requiresBadge: false,
  confirmationKey: 'summary.confirmed.badge',
  open: true,
  pages: 'badge',
  pendingPage: false,
  works: false,
  includedBadges: 0,
} as const satisfies Partial<RegistrationKind>;
