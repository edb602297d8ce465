import { kindFacts } from '@domain/event-catalogue';
import { KINDS } from '@domain/kinds';
import type { Translate } from '@i18n/i18n';
import type { TypeChoice } from './event-catalogue';

/** Every type the registry knows, in its order, with its label and the kind's facts the form needs. */
export const typeChoices = (t: Translate): TypeChoice[] =>
  KINDS.map((k) => ({ value: k.eventType, label: t(`admin.type.${k.registrationTypes[0]}`), facts: kindFacts(k) }));
