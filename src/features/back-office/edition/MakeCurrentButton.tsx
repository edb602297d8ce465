import { useState } from 'react';
import { createT, type Messages } from '@i18n/t';
import { apiMessage } from '@lib/api';
import { browserApi } from '@lib/admin-api.client';

/** Makes an edition of the list the current one (issue 21); the page reloads on it. */
export default function MakeCurrentButton(props: {
  locale: string;
  base: string;
  messages: Messages;
  slug: string;
  name: string;
}) {
  const t = createT(props.messages);
  const [status, setStatus] = useState('');
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className="btn-secondary"
        onClick={() =>
          void browserApi(props.locale, `${props.base}/`)
            .admin.editions.makeCurrent(props.slug)
            .then(
              () => window.location.reload(),
              (error: unknown) => setStatus(apiMessage(props.messages, error as { code?: string; message?: string })),
            )
        }
      >
        {t('admin.edition.makeCurrent', { name: props.name })}
      </button>
      <span role="status">{status}</span>
    </span>
  );
}
