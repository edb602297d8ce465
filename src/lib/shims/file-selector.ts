import { EXTENSIONS, MIME, type UploadKind } from '@domain/uploads';

/*
 * The part of file-selector that react-dropzone uses (`fromEvent`), for the client build only
 * (astro.config.mjs `clientShims`; docs/decisions/006): the files of an input's change, of a drop,
 * of a paste and of `showOpenFilePicker`'s handles; during a drag, the dragged items (react-dropzone
 * only counts and types them). Each file gets `path` and `relativePath` ("./name") as
 * file-selector gives them, and a type from its extension when the browser gave none (our upload
 * kinds only: file-selector's table of 40 types is not needed, the server sniffs the bytes anyway).
 * Left out: walking a dropped folder (the uploaders take one file; a folder is refused, as is a
 * second file) and ignoring .DS_Store / Thumbs.db among many files.
 */

type Item = File | DataTransferItem;

const KIND_BY_EXTENSION = new Map(
  (Object.entries(EXTENSIONS) as [UploadKind, string[]][]).flatMap(([kind, exts]) =>
    exts.map((ext) => [ext.slice(1), MIME[kind]] as const),
  ),
);

function define(file: File, key: string, value: string) {
  Object.defineProperty(file, key, { value, writable: false, configurable: false, enumerable: true });
}

/** The file with file-selector's `path` and `relativePath`, and a type guessed from its extension. */
export function withPath(file: File): File {
  const path = `./${file.name}`;
  if (typeof (file as File & { path?: unknown }).path !== 'string') define(file, 'path', path);
  define(file, 'relativePath', path);
  const type = file.type ? '' : KIND_BY_EXTENSION.get(file.name.split('.').pop()!.toLowerCase());
  if (type) define(file, 'type', type);
  return file;
}

const files = (list: FileList | null | undefined) => Array.from(list ?? [], withPath);

export async function fromEvent(evt: unknown): Promise<Item[]> {
  if (Array.isArray(evt))
    return (await Promise.all(evt.map((h: { getFile: () => Promise<File> }) => h.getFile()))).map(withPath);
  const e = (evt ?? {}) as {
    type?: string;
    dataTransfer?: DataTransfer | null;
    clipboardData?: DataTransfer | null;
    target?: { files?: FileList | null } | null;
  };
  if (e.dataTransfer)
    return e.type === 'drop'
      ? files(e.dataTransfer.files)
      : Array.from(e.dataTransfer.items ?? []).filter((i) => i.kind === 'file');
  if (e.clipboardData) return files(e.clipboardData.files);
  return files(e.target?.files);
}
