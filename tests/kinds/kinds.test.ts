import { describe, expect, it } from 'vitest';
import {
  FORM_SECTIONS,
  kindOf,
  KINDS,
  MULTI_ENTRY_REGISTRATION_TYPES,
  REGISTRATION_KINDS,
  takesEventRegistration,
  type RegistrationKind,
} from '@domain/kinds';
import { labelKeysOf } from '@domain/kinds/form-schema';
import { EVENT_TYPES, REGISTRATION_TYPES } from '@domain/kinds/types';
import { catalogue } from '@i18n/catalogues';
import { labelsFor, registrationColumns } from '@server/exports/columns';
import { badgeOfOrder, includedBadges } from '@server/kinds/badges';
import { SERVER_KINDS } from '@server/kinds/index';
import { pitchingWorks } from '@server/kinds/pitching';

/*
 * Every registration kind has every part, and every part is well-formed (issue 19): a kind is
 * added by its module in src/domain/kinds (and its server parts in src/server/kinds), its i18n
 * keys and, if it brings one, its wizard island; this fails when one of them is missing.
 */

/** The words a kind's pages, forms and exports read: the pages', the enumerations' and the exports' catalogues. */
const words = (locale: 'en' | 'zh-TW') => ({
  ...catalogue('pages', locale),
  ...catalogue('enumerations', locale),
  ...catalogue('exports', locale),
});
const CATALOGUES = { en: words('en'), 'zh-TW': words('zh-TW') } as Record<string, Record<string, string>>;
const missingIn = (keys: readonly string[]) =>
  Object.entries(CATALOGUES).flatMap(([locale, messages]) =>
    keys.filter((k) => !messages[k]).map((k) => `${locale}: ${k}`),
  );

/** The i18n keys a kind declares (its words), and those named after its types. */
function keysOf(kind: RegistrationKind): string[] {
  return [
    kind.confirmationKey,
    ...(kind.approvedKey ? [kind.approvedKey] : []),
    ...kind.steps.map((s) => kind.wizard.stepLabels[s] ?? `(no label for step ${s})`),
    ...(kind.wizard.note ? [kind.wizard.note] : []),
    ...(kind.market?.identityNote ? [kind.market.identityNote] : []),
    ...(kind.promotion ? [kind.promotion.note] : []),
    ...labelKeysOf(kind.schema),
    `eventInfo.types.${kind.eventType}`,
    ...kind.registrationTypes.map((t) => `admin.type.${t}`),
  ];
}

const modules = import.meta.glob<Record<string, unknown>>('../../src/domain/kinds/*.ts', { eager: true });

describe.each(EVENT_TYPES.map((t) => [t]))('the %s kind', (type) => {
  const kind = kindOf(type);

  it('has a module of its own that declares it, listed by the registry', () => {
    const file = `../../src/domain/kinds/${type.replace(/_/g, '-')}.ts`;
    expect(modules[file], file).toBeDefined();
    expect(Object.values(modules[file]!)).toContain(REGISTRATION_KINDS[type]);
    expect(kind.eventType).toBe(type);
  });

  it('has its steps, each labelled, its public action and its pages', () => {
    expect(kind.steps.length).toBeGreaterThan(0);
    for (const step of kind.steps) expect(kind.wizard.stepLabels[step], step).toBeTruthy();
    expect(['register', 'applyBadge', 'invitation']).toContain(kind.publicAction);
    // What the public page offers must be there to take: a wizard that posts the kind's body, or the badge pages.
    if (kind.publicAction === 'register') expect(takesEventRegistration(kind)).toBe(true);
    if (kind.publicAction !== 'register') expect(kind.pages).toBe('badge');
    if (kind.pendingPage) expect(kind.approval).toBe('always');
  });

  it('says every word in both languages', () => {
    expect(missingIn(keysOf(kind))).toEqual([]);
  });

  it('declares its form schema from the shared sections, and its edited form with a struct', () => {
    expect(kind.schema.length).toBeGreaterThan(0);
    for (const section of kind.schema) expect(FORM_SECTIONS, section.id).toContain(section);
    if (kind.form) expect(typeof kind.form.struct.validate).toBe('function');
    if (kind.body) expect(typeof kind.body.validate).toBe('function');
  });

  it('declares the rules of its family', () => {
    if (kind.works && kind.quantity === 'one') expect(kind.market?.participationTypes.length).toBeGreaterThan(0);
    if (kind.quantity === 'per_work') expect(kind.pitching).toBeDefined();
    if (kind.includedBadges > 0) expect(kind.includedBadgeIdentity).toBeDefined();
    expect((MULTI_ENTRY_REGISTRATION_TYPES as readonly string[]).includes(kind.registrationTypes[0])).toBe(
      kind.entries === 'several',
    );
  });

  it('has export columns whose headers resolve in both languages', () => {
    for (const locale of ['en', 'zh-TW'] as const) {
      const columns = registrationColumns(labelsFor(locale), {
        types: [type],
        lists: { copyrightContacts: 2, teamMembers: 2, companies: 2 },
      });
      const fields = columns.slice(9);
      expect(fields.length, 'the form fields after the order columns').toBeGreaterThan(0);
      // The registration type's name in the files' "Type" column.
      for (const t of kind.registrationTypes) expect(labelsFor(locale).l(`admin.type.${t}`), t).not.toMatch(/^admin\./);
      for (const c of columns) {
        expect(c.header, c.key).not.toMatch(/\{\{|^(admin|market|pitching|badge)\.|undefined/);
        expect(c.header, c.key).not.toBe(c.key);
      }
    }
  });

  it('has its server parts: how it is placed, how its form is edited, its hooks', () => {
    const server = SERVER_KINDS[type];
    expect(server).toBeDefined();
    expect(!!server.place).toBe(takesEventRegistration(kind));
    expect(!!server.editForm).toBe(!!kind.form);
    expect(server.onChange.includes(badgeOfOrder)).toBe(kind.issuesBadge);
    expect(server.onChange.includes(includedBadges)).toBe(!!kind.includedBadgeIdentity);
    expect(server.onChange.includes(pitchingWorks)).toBe(kind.quantity === 'per_work');
  });
});

describe('the registry', () => {
  it('lists every kind once, and every registration type belongs to one', () => {
    expect(KINDS.map((k) => k.eventType)).toEqual([...EVENT_TYPES]);
    const types = KINDS.flatMap((k) => k.registrationTypes);
    expect([...types].sort()).toEqual([...REGISTRATION_TYPES].sort());
  });

  it('uses every shared section in some kind', () => {
    const used = new Set(KINDS.flatMap((k) => k.schema));
    for (const section of FORM_SECTIONS) expect(used.has(section), section.id).toBe(true);
  });
});
