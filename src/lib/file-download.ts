/**
 * Saving a file the server sent (report exports). The name comes from the response's content-disposition header
 * (`attachment; filename="department-report-2026.csv"`, or the RFC 5987 `filename*=UTF-8''...` form), else the
 * caller's fallback; only the last path segment is kept, so a header can never point outside the downloads folder.
 */
export function fileNameFrom(contentDisposition: string | null, fallback: string): string {
  if (!contentDisposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(contentDisposition);
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/.exec(contentDisposition);
  let name: string | undefined;
  try {
    name = extended ? decodeURIComponent(extended[1]!.trim()) : (plain?.[1] ?? plain?.[2]);
  } catch {
    name = plain?.[1] ?? plain?.[2];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : fallback;
}

/** Hands a blob to the browser's download (an object URL on a temporary link, released right after). */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by the time the event loop turns; the URL is no longer needed then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
