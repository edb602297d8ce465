/** Pitching on the wire (decision 043). */

/** `GET /pitching/usage`: the applicant's works in live pitching registrations, of the limit. */
export type PitchingUsage = { worksUsed: number; worksLimit: number; usedContentIds: string[] };
