import { extractDocx } from './extract-docx';
import { extractPptx, extractXlsx } from './extract-ooxml';
import { extractPdf } from './extract-pdf';
import { extractCsv, extractMarkdown, extractPlainText } from './extract-text';
import type { Extracted } from './sections';

/** The types whose text is extracted from the file itself (audio is transcribed, images hold no text). */
export const EXTRACTED_EXTENSIONS = ['.pdf', '.docx', '.pptx', '.xlsx', '.csv', '.md', '.txt'] as const;
export type ExtractedExtension = (typeof EXTRACTED_EXTENSIONS)[number];

export function isExtracted(extension: string): extension is ExtractedExtension {
  return (EXTRACTED_EXTENSIONS as readonly string[]).includes(extension);
}

/** The text a file holds, by its (content-checked) extension. CPU-bound: called in the extraction worker. */
export async function extractSections(extension: ExtractedExtension, bytes: Uint8Array): Promise<Extracted> {
  switch (extension) {
    case '.pdf':
      return extractPdf(bytes);
    case '.docx':
      return extractDocx(bytes);
    case '.pptx':
      return extractPptx(bytes);
    case '.xlsx':
      return extractXlsx(bytes);
    case '.csv':
      return extractCsv(bytes);
    case '.md':
      return extractMarkdown(bytes);
    case '.txt':
      return extractPlainText(bytes);
  }
}
