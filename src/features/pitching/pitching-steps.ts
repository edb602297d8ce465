/** URL names of the pitching wizard's steps (`?step=form`): pick works, then the form; pay is its own page. */
export const PITCHING_STEPS = ['works', 'form'] as const;
