import { boolean, object, optional, refine, size, string, trimmed, type Infer } from 'superstruct';
import { OptionalText, RequiredText, UuidString } from './validation';

/** Limits of spec §5 (applicant info and printed badge info), shared by the form and the API. */
export const LIMITS = {
  applicant: { nameZh: 20, nameEn: 255, companyNameZh: 30, companyNameEn: 255, contactPhone: 30 },
  badge: { nameZh: 5, nameEn: 17, companyNameZh: 9, companyNameEn: 20 },
} as const;

/** Digits with dashes, spaces and an optional leading +; 8–15 digits (hints: 886-9xx-xxx-xxx, 886-2-xxxx-xxxx). */
const Phone = refine(size(trimmed(string()), 1, LIMITS.applicant.contactPhone), 'phone', (v) => {
  const digits = v.replace(/\D/g, '');
  return (
    (/^\+?[\d\s-]+$/.test(v) && digits.length >= 8 && digits.length <= 15) ||
    'Enter a phone number such as 886-912-345-678'
  );
});

export const ApplicantInfo = object({
  nameZh: OptionalText(LIMITS.applicant.nameZh),
  nameEn: RequiredText(LIMITS.applicant.nameEn),
  companyNameZh: OptionalText(LIMITS.applicant.companyNameZh),
  companyNameEn: OptionalText(LIMITS.applicant.companyNameEn),
  contactPhone: Phone,
  /** Read-only: always the signed-in identity's e-mail; the server ignores what is sent. */
  contactEmail: optional(string()),
});

export const PrintedBadgeInfo = object({
  nameZh: OptionalText(LIMITS.badge.nameZh),
  nameEn: RequiredText(LIMITS.badge.nameEn),
  companyNameZh: OptionalText(LIMITS.badge.companyNameZh),
  companyNameEn: OptionalText(LIMITS.badge.companyNameEn),
});

/** A badge application (Professional, or free through a link). */
export const BadgeApplication = object({
  applicant: ApplicantInfo,
  badge: PrintedBadgeInfo,
  sameAsApplicant: optional(boolean()),
  personalPhotoFileId: UuidString,
  eventSlug: optional(string()),
});
export type BadgeApplication = Infer<typeof BadgeApplication>;

/** Badge identities (spec §3) and their wire values. */
export const BADGE_IDENTITIES = [
  'PROFESSIONAL',
  'VIP',
  'EXHIBITOR_PITCHING',
  'EXHIBITOR_MARKET',
  'EXHIBITOR_INNOVATIONS',
] as const;
export type BadgeIdentity = (typeof BADGE_IDENTITIES)[number];

/** URL segment of a free-badge link type (`/get-badge/{type}/{code}`). */
export const identityFromLinkType = (type: string): BadgeIdentity | undefined =>
  BADGE_IDENTITIES.find((i) => i.toLowerCase().replace(/_/g, '-') === type.toLowerCase());
export const linkTypeOf = (identity: BadgeIdentity) => identity.toLowerCase().replace(/_/g, '-');

/**
 * What a one-time free-badge link is to the person opening it (spec §8 get-badge: 404 expired,
 * 409 used; a link issued to an e-mail is only for that e-mail; 410 revoked by an organiser). The
 * order of the checks is the claim's: an unknown or wrong-type link is `expired` whatever else
 * holds; a link the organiser revoked is `revoked` (even once past its expiry: the clearer
 * reason); an expired one `expired`; a link this user already used is `claimed` (claiming again
 * is a no-op); then `used`; then another e-mail's. A link of another edition than the current
 * one is `past_edition` (issue 21: last year's link gives no badge of this year's fair), right
 * after `revoked`. A link is never both used and revoked (the
 * database refuses it). Signed out (`who` null) the e-mail cannot be compared, so such a link
 * reads `valid` until sign-in.
 */
export type BadgeLinkState = 'valid' | 'claimed' | 'expired' | 'used' | 'revoked' | 'past_edition' | 'not_for_user';

export function badgeLinkState(
  link:
    | {
        identity: BadgeIdentity;
        email: string | null;
        expiresAt: Date;
        usedAt: Date | null;
        usedBy: string | null;
        revokedAt?: Date | null;
        /** The edition whose badge the link gives (null: made before editions, any). */
        editionId?: string | null;
      }
    | undefined,
  who: { userId: string; email: string } | null,
  options: {
    now: Date;
    linkType?: BadgeIdentity | undefined;
    /** The current edition's id (undefined: none, or not checked). */
    currentEditionId?: string | undefined;
  },
): BadgeLinkState {
  if (!link) return 'expired';
  if (options.linkType && link.identity !== options.linkType) return 'expired';
  if (link.revokedAt) return 'revoked';
  if (link.editionId && options.currentEditionId && link.editionId !== options.currentEditionId) return 'past_edition';
  if (link.expiresAt.getTime() < options.now.getTime()) return 'expired';
  if (link.usedAt) return who && link.usedBy === who.userId ? 'claimed' : 'used';
  if (who && link.email && link.email.toLowerCase() !== who.email.toLowerCase()) return 'not_for_user';
  return 'valid';
}

export type { Badge, BadgeLinkCheck } from './contract/badges';
export type { PickupSlot } from './contract/events';
