import { useEffect, useState } from 'react';
import { createT, type Messages } from '@i18n/t';
import { ApiError } from '@lib/api';
import { browserApi } from '@lib/api.client';
import { cardDeclined } from '@domain/orders';
import { cardFailure, PROCESSING_POLL_MS, type CardFailure } from '@domain/payments';

/** After this long without a card result, offer the way back to pay (the poll goes on). */
const CARD_RESULT_PATIENCE_MS = 60_000;

type PollState = { kind: 'waiting' | 'slow' } | { kind: 'failed'; reason: CardFailure };

/**
 * Polls the order every PROCESSING_POLL_MS until it is no longer unpaid (then goes to its done
 * page) or its card came back declined; after CARD_RESULT_PATIENCE_MS without a result it says
 * so. Returns the stop.
 */
function pollOrder(
  o: { orderId: string; locale: string; base: string; donePath: string; title: string; failedTitle: string },
  setState: (state: PollState) => void,
): () => void {
  const started = Date.now();
  const api = browserApi(o.locale, `${o.base}/`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  async function poll() {
    try {
      const { data: order } = await api.orders.get(o.orderId);
      if (stopped) return;
      if (order.paymentStatus !== 'pending') {
        location.assign(`${o.base}${o.donePath}`);
        return;
      }
      if (cardDeclined(order.payment)) {
        // The gateway's code in the registrant's words; its own text is for the organiser. The
        // tab's title follows the heading (a page rendered declined has it from the server).
        document.title = document.title.replace(o.title, o.failedTitle);
        setState({ kind: 'failed', reason: cardFailure(order.payment?.gatewayStatus) });
        return;
      }
      if (Date.now() - started > CARD_RESULT_PATIENCE_MS) setState({ kind: 'slow' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        location.assign(`${o.base}/account/orders`);
        return;
      }
      // Network trouble: keep polling.
    }
    if (!stopped) timer = setTimeout(() => void poll(), PROCESSING_POLL_MS);
  }
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Polls the order every 5 s until it is no longer unpaid, then goes on (spec §4 Processing). A
 * declined card (a gateway result newer than the attempt) stops the wait and offers to pay again;
 * the page's heading then says the payment did not go through.
 */
export default function ProcessingPoller(props: {
  orderId: string;
  locale: string;
  base: string;
  messages: Messages;
  payPath: string;
  donePath: string;
  /** The card was already declined when the page was rendered: no wait, the failure at once, and why. */
  declined?: { reason: CardFailure } | null;
}) {
  const t = createT(props.messages);
  const [state, setState] = useState<PollState>(
    props.declined ? { kind: 'failed', reason: props.declined.reason } : { kind: 'waiting' },
  );
  const failed = state.kind === 'failed';
  const { orderId, locale, base, donePath } = props;
  const declinedAtRender = !!props.declined;
  const title = t('processing.title');
  const failedTitle = t('processing.failedTitle');

  // Polls until the order is decided (a page declined from the start has nothing to wait for).
  useEffect(() => {
    if (declinedAtRender) return;
    return pollOrder({ orderId, locale, base, donePath, title, failedTitle }, setState);
  }, [orderId, locale, base, donePath, declinedAtRender, title, failedTitle]);

  const heading = (
    <h1 className="mb-6 text-2xl font-bold">{failed ? t('processing.failedTitle') : t('processing.title')}</h1>
  );
  if (state.kind === 'failed') {
    return (
      <>
        {heading}
        <div role="alert" className="card space-y-3 border-red-500">
          <p className="text-lg font-semibold text-red-800">{t('processing.failed')}</p>
          <p>{t(`processing.reason.${state.reason}`)}</p>
          <p>{t('processing.failedDetail')}</p>
          <a className="btn-primary" href={`${props.base}${props.payPath}`}>
            {t('processing.tryAgain')}
          </a>
        </div>
      </>
    );
  }
  return (
    <>
      {heading}
      <div className="card flex flex-col items-center gap-4 py-10 text-center">
        <span
          className="h-10 w-10 animate-spin rounded-full border-4 border-orange-200 border-t-orange-700"
          aria-hidden="true"
        />
        <p role="status">{t('processing.waiting')}</p>
        {state.kind === 'slow' && (
          <p className="text-sm">
            {t('processing.noResult')}{' '}
            <a className="link" href={`${props.base}${props.payPath}`}>
              {t('processing.tryAgain')}
            </a>
          </p>
        )}
      </div>
    </>
  );
}
