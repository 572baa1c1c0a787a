import mammoth from 'mammoth';
import type { Extracted, TextSection } from './sections';
import { decodeEntities, isLineBreak } from './xml-text';
import { repackCapped } from './zip-directory';

/**
 * A Word document through mammoth's HTML, which keeps the headings (Heading 1..6 styles become h1..h6): the text
 * under each heading is one section placed at that heading, so passages cite where in the document they are.
 */
export async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  // mammoth inflates the parts without a limit: it is handed the parts already inflated under a cap (issue 27).
  const repacked = repackCapped(bytes);
  const { value: html } = await mammoth.convertToHtml(
    { buffer: Buffer.from(repacked.buffer, repacked.byteOffset, repacked.byteLength) },
    // Images hold no text: never read (nor base64-encoded into the HTML).
    { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
  );
  return { sections: sectionsFromHtml(html) };
}

/** The elements whose start and end bound a paragraph; h1..h6 also name the section that follows. */
const BLOCKS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'td', 'th', 'caption']);
const isHeading = (name: string) => name.length === 2 && name[0] === 'h' && name[1] >= '1' && name[1] <= '6';

/**
 * Splits mammoth's HTML at its headings; the text of block elements becomes paragraphs (every block's start or end
 * ends one, so a table cell's or list item's own paragraphs stay apart). One forward scan over the tags, as a
 * pattern tried at every block start could scan the rest of the document from each.
 */
export function sectionsFromHtml(html: string): TextSection[] {
  const sections: TextSection[] = [];
  let place: string | null = null;
  let paragraphs: string[] = [];
  const flush = () => {
    const text = paragraphs.join('\n\n').trim();
    if (text) sections.push({ kind: 'text', place, text });
    paragraphs = [];
  };
  let depth = 0;
  let heading = false;
  let pieces: string[] = [];
  const endParagraph = () => {
    const text = decodeEntities(pieces.join('')).replace(/[ \t]+/g, ' ').trim();
    pieces = [];
    if (!text) return;
    if (heading) {
      flush();
      place = text.length > 120 ? `${text.slice(0, 119)}…` : text;
    } else {
      paragraphs.push(text);
    }
  };
  let from = 0;
  while (from < html.length) {
    const lt = html.indexOf('<', from);
    const gt = lt === -1 ? -1 : html.indexOf('>', lt + 1);
    const textEnd = gt === -1 ? html.length : lt;
    if (depth > 0 && textEnd > from) pieces.push(html.slice(from, textEnd));
    if (gt === -1) break;
    from = gt + 1;
    if (isLineBreak(html, lt + 1, gt)) {
      if (depth > 0) pieces.push('\n');
      continue;
    }
    const closing = html[lt + 1] === '/';
    const name = tagName(html, closing ? lt + 2 : lt + 1, gt);
    if (!BLOCKS.has(name)) continue;
    endParagraph();
    if (closing) {
      depth = Math.max(0, depth - 1);
      if (isHeading(name)) heading = false;
    } else {
      depth++;
      if (isHeading(name)) heading = true;
    }
  }
  endParagraph();
  flush();
  return sections;
}

/** The lower-case name of the tag starting at `start` (letters and digits, up to a space, '/' or `end`). */
function tagName(html: string, start: number, end: number): string {
  let i = start;
  while (i < end && /[a-z0-9]/i.test(html[i])) i++;
  return html.slice(start, i).toLowerCase();
}
