/** Up to two uppercase initials: the first letters of the first two words ('Nur User' -> 'NU', 'Siti' -> 'S'). */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => Array.from(word)[0]!.toLocaleUpperCase())
    .join('');
}
