import { EVENT_IMAGE_WIDTHS } from '../../files/thumbnails';
import { readEventImage } from '../../events/event-images';
import type { ApiApp, RouteContext } from '../context';
import { notFound } from '../errors';

/**
 * Event images (issue 21), public: `GET /api/v1/event-images/{fileId}?w=320|640|1280` (default
 * 640), the image of an event resized as JPEG; 404 for a file no event names.
 */
export function eventImageRoutes(app: ApiApp, ctx: RouteContext) {
  app.get('/event-images/:fileId', async (c) => {
    const asked = Number(c.req.query('w') ?? 640);
    const width = EVENT_IMAGE_WIDTHS.find((w) => w >= asked) ?? EVENT_IMAGE_WIDTHS.at(-1)!;
    const bytes = await readEventImage(ctx.deps.db, ctx.deps.storage, c.req.param('fileId'), width);
    if (!bytes) throw notFound('Image');
    // The address names the file, whose bytes never change.
    return jpegResponse(bytes, 'public, max-age=31536000, immutable');
  });
}

/** A resized image (JPEG) as the public image routes answer it. */
export const jpegResponse = (bytes: Uint8Array, cacheControl: string) =>
  new Response(Buffer.from(bytes), {
    headers: {
      'content-type': 'image/jpeg',
      'content-length': String(bytes.length),
      'cache-control': cacheControl,
      'x-content-type-options': 'nosniff',
    },
  });
