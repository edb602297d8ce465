/**
 * Works of the content site on the wire (decision 043), as Market and pitching registrations pick
 * them: `GET /contents/remote`. The shape is declared with the works' rules in @domain/works.
 */
export type { Work } from '@domain/works';
