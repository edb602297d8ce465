import { pickMessages } from '@i18n/i18n';
import type { BadgeDeskProps } from './BadgeDesk';

/** The badge desk island's props: its words, and who is at the desk. */
export function badgeDeskProps(locals: App.Locals, organiser: { email: string }): BadgeDeskProps {
  return {
    locale: locals.locale,
    messages: pickMessages(locals.locale, ['admin.desk.', 'identity.']),
    organiser: organiser.email.toLowerCase(),
    serviceWorker: '/desk-sw.js',
  };
}
