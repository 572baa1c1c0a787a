import mammoth from 'mammoth';
import type { Extracted, TextSection } from './sections';
import { htmlToText } from './xml-text';
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

/** Splits mammoth's HTML at its headings; block elements become paragraphs. */
export function sectionsFromHtml(html: string): TextSection[] {
  const sections: TextSection[] = [];
  let place: string | null = null;
  let paragraphs: string[] = [];
  const flush = () => {
    const text = paragraphs.join('\n\n').trim();
    if (text) sections.push({ kind: 'text', place, text });
    paragraphs = [];
  };
  const blocks = /<(h[1-6]|p|li|td|th|caption)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/gi;
  for (let m = blocks.exec(html); m; m = blocks.exec(html)) {
    const text = htmlToText(m[2]).replace(/[ \t]+/g, ' ').trim();
    if (!text) continue;
    if (/^h[1-6]$/i.test(m[1])) {
      flush();
      place = text.length > 120 ? `${text.slice(0, 119)}…` : text;
    } else {
      paragraphs.push(text);
    }
  }
  flush();
  return sections;
}
