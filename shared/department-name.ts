/** What makes two department names (or two unit names of one department) the same name: case does not count. */
export function nameKey(name: string): string {
  return name.toLowerCase();
}
