/** Editions on the wire (issue 21, decision 049): the public edition, the back office's editions. */

/** The transfer instructions of the pay page, in one language (`GET /edition`) . */
export type TransferInstructions = {
  name: string;
  code: string;
  accountName: string;
  accountNumber: string;
  swift: string;
};

/** What registrants see of the current edition (`GET /edition`): null fields are not set. */
export type PublicEdition = {
  slug: string;
  name: string;
  timeZone: string;
  venueMapUrl: string;
  /** The badge-rights image's address (the edition's upload, else the portal's default image). */
  badgeRightsImage: string;
  contactEmail: string | null;
  transfer: TransferInstructions;
};

/** An edition as the back office sees it: its settings as written (null: the default) and as shown. */
export type AdminEdition = {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  isCurrent: boolean;
  timeZone: string;
  venueMapUrl: string | null;
  contactEmail: string | null;
  badgeRightsFileId: string | null;
  badgeRightsImage: string;
  bankName: string | null;
  bankNameZh: string | null;
  bankCode: string | null;
  bankAccountName: string | null;
  bankAccountNameZh: string | null;
  bankAccountNumber: string | null;
  bankSwiftCode: string | null;
  /** The BANK_* and VENUE_MAP_URL values a field left empty shows. */
  defaults: Record<string, string>;
  events: number;
  createdAt: string;
  updatedAt: string;
};

/** One row of an edition's history: who, when, what (`{field: {before, after}}`). */
export type EditionChange = {
  id: number;
  changedBy: string;
  action: string;
  createdAt: string;
  changes: Record<string, unknown>;
};

export type AdminEditionDetail = AdminEdition & { changes: EditionChange[] };
