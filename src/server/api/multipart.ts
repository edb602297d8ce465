import type { Context } from 'hono';
import { badRequest } from './errors';

/**
 * The parts of a multipart/form-data body (an upload): 415 for another content type, 400 when
 * the body cannot be read as one.
 */
export async function readMultipart(c: Context): Promise<Record<string, string | File>> {
  if (!(c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
    throw badRequest('unsupported_media_type', 'Expected multipart/form-data with a file part');
  }
  try {
    return (await c.req.parseBody()) as Record<string, string | File>;
  } catch {
    throw badRequest('invalid_multipart', 'The upload could not be read');
  }
}
