import type { ServerKind } from './parts';

/** The event kinds (audit, general, online): the registration stores the terms agreed to; no hooks of their own. */
export const EVENT_SERVER: ServerKind = {
  place: async (_db, _kind, _event, input) => ({
    registrationType: input.type,
    form: { agreeTerms: true },
    contact: null,
    contents: [],
  }),
  onChange: [],
};
