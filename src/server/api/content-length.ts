/**
 * A JSON answer goes out with its Content-Length. Astro's node adapter streams a response body,
 * so without one the compression in front of it (server.mjs, threshold 512 bytes) cannot see
 * that an answer is small and deflated every 60-byte `{"code":"…"}`: about a tenth of an
 * instance's CPU in a registration burst. JSON answers are small and already whole in memory;
 * files and exports are left streaming.
 */
export async function withContentLength(response: Response): Promise<Response> {
  const { headers } = response;
  if (
    !response.body ||
    headers.has('content-length') ||
    headers.has('content-encoding') ||
    !headers.get('content-type')?.startsWith('application/json')
  ) {
    return response;
  }
  const body = await response.arrayBuffer();
  headers.set('content-length', String(body.byteLength));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
