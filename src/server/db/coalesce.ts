/**
 * Requests of one kind that arrive together sent as ONE statement (decision 067): the first is
 * sent at once (on the next microtask, with whatever arrived in the same tick); the ones that
 * arrive while it is on its way wait and go together as the next statement. Alone, a request
 * waits for nothing; in a burst, where requests queue for the pool's connections anyway, a
 * thousand session checks or rate-limit hits become a few dozen statements instead of a thousand.
 *
 * `run` answers the batch's items in order (one answer per item); when it throws, every item of
 * that batch is rejected with its error, and the next batch is tried afresh.
 */
export function coalescing<I, A>(run: (items: I[]) => Promise<A[]>): (item: I) => Promise<A> {
  type Waiting = { item: I; resolve: (answer: A) => void; reject: (error: unknown) => void };
  let queued: Waiting[] = [];
  let sending = false;

  async function flush() {
    sending = true;
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        const answers = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(answers[i]!));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    sending = false;
  }

  return (item) =>
    new Promise<A>((resolve, reject) => {
      queued.push({ item, resolve, reject });
      if (!sending) {
        sending = true;
        queueMicrotask(() => void flush());
      }
    });
}
