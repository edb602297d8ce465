import { describe, expect, it } from 'vitest';
import { findBySlug, isStateSlug, listCities, listStates, NIGERIA_ISO } from './nigeria';

describe('Nigerian states and local areas', () => {
  it('lists the 36 states and the Federal Capital Territory', () => {
    const states = listStates();
    expect(states).toHaveLength(37);
    expect(states.filter((s) => s.slug !== 'federal-capital-territory')).toHaveLength(36);
    expect(states.map((s) => s.name)).toContain('Katsina');
    expect(states.map((s) => s.name)).not.toContain('Kastina');
    for (const s of states) {
      expect(s).toMatchObject({ kind: 'state', stateSlug: s.slug, country: NIGERIA_ISO });
      expect(s.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(states[0]!.name).toBe('Abia');
  });

  it('lists the 774 local government areas, each of a known state, with unique slugs', () => {
    const cities = listCities();
    expect(cities).toHaveLength(774);
    const stateSlugs = new Set(listStates().map((s) => s.slug));
    for (const c of cities) {
      expect(stateSlugs.has(c.state), c.slug).toBe(true);
      expect(c.slug).toBe(`${c.state}-${c.citySlug}`);
      expect(c.country).toBe(NIGERIA_ISO);
    }
    const slugs = [...stateSlugs, ...cities.map((c) => c.slug)];
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('filters areas by state slug and by a case-insensitive name substring', () => {
    const lagos = listCities({ state: 'lagos' });
    expect(lagos).toHaveLength(20);
    expect(lagos.every((c) => c.state === 'lagos')).toBe(true);
    expect(listCities({ state: 'kano' })).toHaveLength(44);
    expect(listCities({ state: 'LAGOS', name: 'ikEJ' }).map((c) => c.name)).toEqual(['Ikeja']);
    // Surulere is an area of Lagos and of Oyo.
    expect(listCities({ name: 'surulere' }).map((c) => c.slug)).toEqual(['lagos-surulere', 'oyo-surulere']);
    expect(listCities({ state: 'atlantis' })).toEqual([]);
    expect(listCities({ name: 'zzz' })).toEqual([]);
  });

  it('finds a state or an area by slug', () => {
    expect(findBySlug('lagos')).toMatchObject({ kind: 'state', name: 'Lagos' });
    expect(findBySlug('federal-capital-territory')).toMatchObject({ kind: 'state', name: 'Federal Capital Territory' });
    expect(findBySlug('Lagos-Ikeja')).toMatchObject({ kind: 'city', name: 'Ikeja', citySlug: 'ikeja', state: 'lagos' });
    expect(findBySlug('ikeja')).toBeUndefined();
    expect(isStateSlug('oyo')).toBe(true);
    expect(isStateSlug('lagos-ikeja')).toBe(false);
  });
});
