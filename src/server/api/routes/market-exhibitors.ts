import type { Data, DirectoryExhibitor, DirectoryPage, Sendable } from '@domain/contract';
import { ExhibitorQuery, exhibitorFilters } from '@domain/exhibitor-directory';
import { EXHIBITOR_LOGO_WIDTHS, listedExhibitor, listExhibitors, readExhibitorLogo } from '../../market/directory';
import type { ApiApp, RouteContext } from '../context';
import { notFound } from '../errors';
import { jpegResponse } from './event-images';

/**
 * The exhibitor directory (issue 23), public: `GET /market/exhibitors` (search and filters, a
 * page at a time), `GET /market/exhibitors/{id}` (404 unless listed) and the listed exhibitors'
 * logos, `GET /exhibitor-logos/{fileId}?w=160|320`, resized as JPEG.
 */
export function marketExhibitorRoutes(app: ApiApp, ctx: RouteContext) {
  app.get('/market/exhibitors', async (c) => {
    const query = ctx.validQuery(c, ExhibitorQuery);
    const page = await listExhibitors(ctx.deps.db, exhibitorFilters(query), c.get('locale'));
    c.header('vary', 'Accept-Language');
    return ctx.send(c, page satisfies Sendable<DirectoryPage>);
  });

  app.get('/market/exhibitors/:id', async (c) => {
    const exhibitor = await listedExhibitor(ctx.deps.db, c.req.param('id'), c.get('locale'));
    if (!exhibitor) throw notFound('Exhibitor');
    c.header('vary', 'Accept-Language');
    return ctx.send(c, { data: exhibitor } satisfies Sendable<Data<DirectoryExhibitor>>);
  });

  app.get('/exhibitor-logos/:fileId', async (c) => {
    const asked = Number(c.req.query('w') ?? EXHIBITOR_LOGO_WIDTHS[1]);
    const width = EXHIBITOR_LOGO_WIDTHS.find((w) => w >= asked) ?? EXHIBITOR_LOGO_WIDTHS.at(-1)!;
    const bytes = await readExhibitorLogo(ctx.deps.db, ctx.deps.storage, c.req.param('fileId'), width);
    if (!bytes) throw notFound('Logo');
    // An exhibitor that opts out is no longer served: browsers keep a logo an hour at most.
    return jpegResponse(bytes, 'public, max-age=3600');
  });
}
