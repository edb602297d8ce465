/** Upload rules shared by the uploader and the API: accepted types and size per field. */

export type UploadKind = 'png' | 'jpeg' | 'pdf' | 'doc' | 'docx' | 'ai';

export const UPLOAD_PURPOSES = {
  /** Badge photo: png or jpeg; guidance ≥ 1000×1000 px, 300 dpi, square, clear face. */
  personal_photo: { kinds: ['png', 'jpeg'], maxBytes: 10 * 1024 * 1024 },
  company_logo: { kinds: ['png', 'jpeg', 'ai'], maxBytes: 20 * 1024 * 1024 },
  story_outline: { kinds: ['pdf', 'docx', 'doc'], maxBytes: 20 * 1024 * 1024 },
  relation_image: { kinds: ['png', 'jpeg'], maxBytes: 10 * 1024 * 1024 },
  /** An event's image (the back office's event catalogue, issue 21), served resized to the public. */
  event_image: { kinds: ['png', 'jpeg'], maxBytes: 10 * 1024 * 1024 },
} as const satisfies Record<string, { kinds: UploadKind[]; maxBytes: number }>;
export type UploadPurpose = keyof typeof UPLOAD_PURPOSES;

export const MIME: Record<UploadKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ai: 'application/postscript',
};
export const EXTENSIONS: Record<UploadKind, string[]> = {
  png: ['.png'],
  jpeg: ['.jpg', '.jpeg'],
  pdf: ['.pdf'],
  doc: ['.doc'],
  docx: ['.docx'],
  ai: ['.ai'],
};

/** The `accept` map react-dropzone takes for a purpose. */
export function acceptFor(purpose: UploadPurpose): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const kind of UPLOAD_PURPOSES[purpose].kinds) out[MIME[kind]] = EXTENSIONS[kind];
  return out;
}

const startsWith = (bytes: Uint8Array, sig: number[], offset = 0) => sig.every((b, i) => bytes[offset + i] === b);

/**
 * The file's real kind from its first bytes (never from its name or declared type): PNG, JPEG,
 * PDF, legacy Office (OLE2) as doc, ZIP with word/ as docx, Illustrator (PDF- or PostScript-based).
 */
export function sniffKind(bytes: Uint8Array): UploadKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // %PDF-
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // A .docx is a ZIP whose entries include word/; look for the name in the first 64 KiB.
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 65536));
    return head.includes('word/') || head.includes('[Content_Types].xml') ? 'docx' : null;
  }
  if (startsWith(bytes, [0x25, 0x21, 0x50, 0x53])) return 'ai'; // %!PS (Illustrator EPS-style)
  return null;
}

/** Which kinds a purpose accepts, given a sniffed kind (an .ai saved as PDF sniffs as pdf). */
export function acceptedKind(purpose: UploadPurpose, sniffed: UploadKind | null, fileName: string): UploadKind | null {
  if (!sniffed) return null;
  const kinds = UPLOAD_PURPOSES[purpose].kinds as readonly UploadKind[];
  if (kinds.includes(sniffed)) return sniffed;
  if (sniffed === 'pdf' && kinds.includes('ai') && fileName.toLowerCase().endsWith('.ai')) return 'ai';
  return null;
}
