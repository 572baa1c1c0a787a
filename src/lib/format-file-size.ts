/**
 * File sizes as people read them (spec section 3): Bytes, KB, MB or GB, 1024-based, rounded to 2 decimals
 * ("1.5 KB", "2.25 MB", "512 Bytes"; trailing zeros dropped, as in the product's original).
 */
const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${parseFloat((bytes / 1024 ** i).toFixed(2))} ${UNITS[i]}`;
}
