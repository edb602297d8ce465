import { bodyLimit } from 'hono/body-limit';
import type { Sendable, UploadedFile } from '@domain/contract';
import { hasNul } from '@domain/validation';
import type { MiddlewareHandler } from 'hono';
import { checkUploadQuota, readOwnFile, saveUpload } from '../../files/files';
import type { ApiApp, Env, RouteContext } from '../context';
import { ApiError, badRequest, errorBody, notFound } from '../errors';
import { nulRefusal } from '../../security/nul-guard';
import { readMultipart } from '../multipart';

/** Largest upload body accepted before the per-purpose size check (20 MB file + form overhead). */
const UPLOAD_BODY_LIMIT = 21 * 1024 * 1024;

/** Uploads (multipart, Bearer) and downloads (owner only). */
export function fileRoutes(app: ApiApp, ctx: RouteContext) {
  const { deps, auth } = ctx;

  // The API-wide body limit skips this route; this one also caps bodies sent without a
  // content-length (chunked), which would otherwise be read into memory whole.
  const uploadLimit = bodyLimit({
    maxSize: UPLOAD_BODY_LIMIT,
    onError: (c) => c.json(errorBody(new ApiError(400, 'file_too_large', 'The file exceeds 20 MB')), 400),
  });

  const quota = { files: deps.config.UPLOAD_QUOTA_FILES, bytes: deps.config.UPLOAD_QUOTA_BYTES };
  // The daily quota, before the body is read: the files so far plus the declared length.
  const quotaCheck: MiddlewareHandler<Env> = async (c, next) => {
    const declared = Number(c.req.header('content-length') ?? 0);
    await checkUploadQuota(deps.db, c.get('user').id, quota, Number.isSafeInteger(declared) ? declared : 0, ctx.now());
    await next();
  };

  app.post('/files/upload', auth, ctx.limits.uploads, quotaCheck, uploadLimit, async (c) => {
    const form = await readMultipart(c);
    // A NUL in a part's name, a text part or a file name is refused (PostgreSQL refuses NUL in
    // text); nothing is stored.
    const withNul = Object.entries(form).flatMap(([key, value]) =>
      hasNul(key) || hasNul(value instanceof File ? value.name : String(value))
        ? [value instanceof File ? { path: key, message: 'The file name must not contain a NUL character' } : key]
        : [],
    );
    if (withNul.length) throw nulRefusal(withNul);
    const file = form.file;
    if (!(file instanceof File)) throw badRequest('validation_failed', 'file: a file part is required');
    const purpose = typeof form.purpose === 'string' ? form.purpose : 'personal_photo';
    const saved = await saveUpload(deps.db, deps.storage, {
      ownerId: c.get('user').id,
      purpose,
      file,
      quota,
      now: ctx.now(),
    });
    return ctx.send(c, saved satisfies Sendable<UploadedFile>);
  });

  // A link on the badge page opens the photo: the browser sends the identity cookie, not a Bearer
  // header, so both are accepted here (reads only; SameSite=Lax keeps other sites out).
  app.get('/files/:fileId', ctx.authOrCookie, async (c) => {
    const found = await readOwnFile(deps.db, deps.storage, c.get('user').id, c.req.param('fileId'));
    if (!found) throw notFound('File');
    return new Response(Buffer.from(found.bytes), {
      headers: {
        'content-type': found.row.contentType,
        'content-length': String(found.bytes.length),
        'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(found.row.name)}`,
        'cache-control': 'private, max-age=300',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      },
    });
  });
}
