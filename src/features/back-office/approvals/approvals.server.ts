import type { ApiClient } from '@lib/api';
import { load } from '@lib/load';
import { localized } from '@lib/routes';
import type { ApprovalQueuePage } from './approvals';
import type { ApprovalQueueProps } from './ApprovalQueue';
import { islandProps } from '@lib/island-props.server';

/** The approvals queue. */
export const loadApprovals = (api: ApiClient) => load(() => api.admin.approvals.list());

/** The ApprovalQueue island's props: the rows, the words it shows, where the order pages are. */
export function approvalQueueProps(locals: App.Locals, page: ApprovalQueuePage, headingId: string): ApprovalQueueProps {
  return {
    ...islandProps(locals.locale, [
      'admin.approvals.',
      'admin.type.',
      'status.approval.',
      'identity.',
      'dialog.',
      'apiError.',
    ]),
    rows: page.data,
    total: page.meta.total,
    headingId,
    orderBase: localized(locals.locale, '/admin/orders/'),
  };
}
