import { extractText, getDocumentProxy } from 'unpdf';
import { SCANNED_PDF_NOTE, type Extracted, type TextSection } from './sections';

/** A PDF's text page by page (unpdf's build of pdf.js: CPU-bound, so it runs in the extraction worker). */
export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const pdf = await getDocumentProxy(bytes);
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const sections: TextSection[] = [];
    text.forEach((page, i) => {
      const clean = withoutTrailingSpaces(page).trim();
      if (clean) sections.push({ kind: 'text', place: `page ${i + 1}`, text: clean });
    });
    return sections.length > 0 ? { sections } : { sections, note: SCANNED_PDF_NOTE };
  } finally {
    await pdf.destroy();
  }
}

/**
 * Each line without the spaces and tabs pdf.js leaves at its end. A scan, not /[ \t]+\n/g: tried at every space of
 * a long run that no newline ends, that pattern rescans the rest of the run each time (quadratic).
 */
export function withoutTrailingSpaces(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let end = line.length;
      while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
      return end === line.length ? line : line.slice(0, end);
    })
    .join('\n');
}
