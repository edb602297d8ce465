/** The pitching event types. */
export type PitchingType = 'pitching_project' | 'pitching_story';

/** URL names of the pitching wizard's steps (`?step=form`): pick works, then the form; pay is its own page. */
export const PITCHING_STEPS = ['works', 'form'] as const;
