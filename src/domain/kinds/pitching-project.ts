import { WORKS_SECTION } from './form-schema';
import { defineKind } from './kind';
import { ProjectRegistration } from './pitching';
import { PITCHING_KIND, PITCHING_SECTION, PITCHING_STEP_LABELS } from './pitching-kinds';

/** Project to Screen (spec §2): pick works (projects or pieces), the invoice block, pay per work. */
export const pitchingProject = defineKind({
  ...PITCHING_KIND,
  eventType: 'pitching_project',
  registrationTypes: ['PITCHING_PROJECT'],
  body: ProjectRegistration,
  // Only the invoice block, edited on the summary and the pay page.
  form: null,
  schema: [WORKS_SECTION, PITCHING_SECTION],
  wizard: { island: 'project', stepLabels: PITCHING_STEP_LABELS },
  pitching: { worksPerEntry: null },
});
