/** A file's type as people read it: its extension in capitals ("PDF", "DOCX"), else its MIME type. */
export function fileTypeLabel(filename: string, mime: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 && dot < filename.length - 1 ? filename.slice(dot + 1).toUpperCase() : mime;
}
