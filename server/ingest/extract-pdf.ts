import { extractText, getDocumentProxy } from 'unpdf';
import { SCANNED_PDF_NOTE, type Extracted, type TextSection } from './sections';

/** A PDF's text page by page (unpdf's build of pdf.js: CPU-bound, so it runs in the extraction worker). */
export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const pdf = await getDocumentProxy(bytes);
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const sections: TextSection[] = [];
    text.forEach((page, i) => {
      const clean = page.replace(/[ \t]+\n/g, '\n').trim();
      if (clean) sections.push({ kind: 'text', place: `page ${i + 1}`, text: clean });
    });
    return sections.length > 0 ? { sections } : { sections, note: SCANNED_PDF_NOTE };
  } finally {
    await pdf.destroy();
  }
}
