// The colour theme a person chooses (issue 28; not in the spec): the system's, or always light, or always dark.
// Kept with the person on the server (so it follows them to every device) and cached in the browser under
// THEME_STORAGE_KEY, where index.html's first script reads it before the first paint.

export const themeChoices = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof themeChoices)[number];

export const DEFAULT_THEME: ThemeChoice = 'system';

/** localStorage key of the cached choice (read by the inline script in index.html: keep the two in step). */
export const THEME_STORAGE_KEY = 'theme';

/** The words the theme control shows. */
export const THEME_LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
