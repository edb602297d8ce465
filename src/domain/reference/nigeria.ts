/**
 * Nigerian states and local government areas (spec §3 Reference data), from the
 * `nigerian-states-and-lgas` package (decision 015): the 36 states and the Federal Capital
 * Territory, 774 local government areas. One spelling slip of the package is corrected here
 * (`Kastina` → Katsina); nothing else is typed by hand.
 *
 * Slugs: a state's is its name's (`lagos`, `federal-capital-territory`); a local area's own slug
 * (`citySlug`, `surulere`) repeats across states (Surulere is in Lagos and in Oyo), so its unique
 * `slug` is prefixed with its state's (`lagos-surulere`). State and area slugs never collide, so
 * `findBySlug` answers either.
 */
import { all as allStatesAndLgas } from 'nigerian-states-and-lgas';
import { slugify } from './countries';

/** The country of every state and area (ISO 3166-1 alpha-3). */
export const NIGERIA_ISO = 'NGA';

export type NigerianState = {
  kind: 'state';
  name: string;
  /** Unique among states and areas. */
  slug: string;
  /** The state's own slug (the same as `slug`): what a local area's `state` refers to. */
  stateSlug: string;
  country: typeof NIGERIA_ISO;
};

export type NigerianCity = {
  kind: 'city';
  name: string;
  /** Unique among states and areas: `<state slug>-<city slug>`. */
  slug: string;
  /** The area's own name slug (not unique across states). */
  citySlug: string;
  /** The state's slug. */
  state: string;
  country: typeof NIGERIA_ISO;
};

export type NigerianPlace = NigerianState | NigerianCity;

/** The package's slips, corrected (decision 015). */
const STATE_NAME_FIXES: Record<string, string> = { Kastina: 'Katsina' };

const collator = new Intl.Collator('en', { sensitivity: 'base' });

function build() {
  const states: NigerianState[] = [];
  const cities: NigerianCity[] = [];
  for (const entry of allStatesAndLgas()) {
    const name = STATE_NAME_FIXES[entry.state] ?? entry.state;
    const stateSlug = slugify(name);
    states.push({ kind: 'state', name, slug: stateSlug, stateSlug, country: NIGERIA_ISO });
    for (const lga of entry.lgas) {
      const citySlug = slugify(lga);
      cities.push({
        kind: 'city',
        name: lga,
        slug: `${stateSlug}-${citySlug}`,
        citySlug,
        state: stateSlug,
        country: NIGERIA_ISO,
      });
    }
  }
  states.sort((a, b) => collator.compare(a.name, b.name));
  cities.sort((a, b) => collator.compare(a.state, b.state) || collator.compare(a.name, b.name));
  return { states: Object.freeze(states), cities: Object.freeze(cities) };
}

const { states: STATES, cities: CITIES } = build();
const BY_SLUG = new Map<string, NigerianPlace>([...STATES, ...CITIES].map((p) => [p.slug, p]));

/** The 36 states and the Federal Capital Territory, by name. */
export function listStates(): NigerianState[] {
  return STATES.map((s) => ({ ...s }));
}

/**
 * Local government areas, by state then name: of one state (its slug) when given, whose name
 * contains `name` (case-insensitive) when given. An unknown state gives an empty list.
 */
export function listCities(filter: { state?: string; name?: string } = {}): NigerianCity[] {
  const state = filter.state?.trim().toLowerCase();
  const name = filter.name?.trim().toLowerCase();
  return CITIES.filter((c) => (!state || c.state === state) && (!name || c.name.toLowerCase().includes(name))).map(
    (c) => ({ ...c }),
  );
}

/** The state or local area of a slug, any case. */
export function findBySlug(slug: string): NigerianPlace | undefined {
  const place = BY_SLUG.get(slug.trim().toLowerCase());
  return place && { ...place };
}

/** Whether a state slug is known. */
export function isStateSlug(slug: string): boolean {
  return BY_SLUG.get(slug.trim().toLowerCase())?.kind === 'state';
}
