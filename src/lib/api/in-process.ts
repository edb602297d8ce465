import { handOverData, type FetchFn } from './transport';

/** An in-process answer: the response and, for a JSON success, its data as the client parses it. */
export type InProcessCall = (request: Request) => Promise<{ response: Response; data?: unknown }>;

/**
 * The fetch of the SSR pages' in-process seam (decision 024, 043): the request goes to the
 * embedded API's routes, a success's data rides on the response (handOverData) instead of being
 * serialised and parsed, and the client's timeout (its abort signal) ends the wait.
 */
export function inProcessFetch(call: InProcessCall): FetchFn {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal;
    const answer = await (signal
      ? Promise.race([
          call(request),
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          }),
        ])
      : call(request));
    return 'data' in answer ? handOverData(answer.response, answer.data) : answer.response;
  };
}
