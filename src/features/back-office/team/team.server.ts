import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { localized } from '@lib/routes';
import type { TeamMember } from '@domain/contract/team';
import { ADMIN_SECTIONS } from '../admin';
import { islandBase } from '../admin-ops.server';
import type { TeamManagerProps } from './TeamManager';

/* The team page's loads and its island's props (issue 21). */

export const loadTeam = (api: ApiClient) => load(async () => (await api.admin.team.list()).data);
export const loadTeamChanges = (api: ApiClient) => load(async () => (await api.admin.team.changes()).data);

/** What the page says was done (`?done=…` after an action of the island). */
export const TEAM_DONE = ['invited', 'roleChanged', 'removed'] as const;

export function teamManagerProps(locals: App.Locals, members: TeamMember[], me: string): TeamManagerProps {
  return {
    ...islandBase(locals, ['admin.team.', 'admin.role.', 'admin.roleHint.']),
    members,
    me,
    path: localized(locals.locale, ADMIN_SECTIONS.team),
  };
}
