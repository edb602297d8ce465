import { PitchingWizard, type PitchingWizardProps } from './PitchingWizard';

/** The Project to Screen entry (spec §2: pick works → the invoice block → pay): no story form to load. */
export default function ProjectWizard(props: PitchingWizardProps) {
  return <PitchingWizard {...props} />;
}
