/** Events as the API client sees them (camelCase), and the registration-window rule. */
import type { RegistrationWindowState } from './contract/events';

export type { Event, PostalAddress, RegistrationWindowState } from './contract/events';

/** Whether registration is open at `now`: from registerStartAt (inclusive) to registerEndAt (inclusive). */
export function registrationWindowState(
  event: { registerStartAt: Date | string; registerEndAt: Date | string },
  now: Date,
): RegistrationWindowState {
  const t = now.getTime();
  if (t < new Date(event.registerStartAt).getTime()) return 'not_open';
  if (t > new Date(event.registerEndAt).getTime()) return 'closed';
  return 'open';
}
