/**
 * Event descriptions as organisers write them (issue 21): paragraphs separated by blank lines,
 * links written `[text](https://…)` or as bare `https://…` addresses. Read into plain pieces that
 * pages render as elements (text is never HTML, so nothing typed can inject markup), and only
 * http(s) links become links.
 */

export type RichSegment = { text: string; href?: string };
export type RichParagraph = RichSegment[];

const LINK = /\[([^\]\n]{1,200})\]\((https?:\/\/[^\s)]{1,500})\)|(https?:\/\/[^\s<>()]{1,500})/g;

/** Whether an address is an http(s) URL a link may point to. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The paragraphs of a description, each as text and links. */
export function richText(source: string): RichParagraph[] {
  return source
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((paragraph) => {
      const out: RichSegment[] = [];
      let at = 0;
      for (const m of paragraph.matchAll(LINK)) {
        // A bare address ending a sentence keeps its full stop or comma out of the link.
        const bare = m[3]?.replace(/[.,;:!?]+$/, '');
        const raw = m[2] ?? bare!;
        const href = safeHref(raw);
        const end = m.index + (m[3] ? bare!.length : m[0].length);
        if (m.index > at) out.push({ text: paragraph.slice(at, m.index) });
        out.push(href ? { text: m[1] ?? bare!, href } : { text: paragraph.slice(m.index, end) });
        at = end;
      }
      if (at < paragraph.length) out.push({ text: paragraph.slice(at) });
      return out;
    });
}

/** A description as one line of plain text (meta descriptions): link texts kept, addresses dropped. */
export const plainText = (source: string): string =>
  richText(source)
    .map((p) => p.map((s) => s.text).join(''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
