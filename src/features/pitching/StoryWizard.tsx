import { lazy } from 'react';
import { PitchingWizard, type PitchingWizardProps, type StoryPart } from './PitchingWizard';

const load = () => import('./StoryFields');
const story: StoryPart = { Fields: lazy(() => load().then((m) => ({ default: m.StoryFields }))), preload: load };

/** The Story to Screen entry (spec §2: pick one work → the story form → pay): the pitching wizard with its story form. */
export default function StoryWizard(props: PitchingWizardProps) {
  return <PitchingWizard {...props} story={story} />;
}
