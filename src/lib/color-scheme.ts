import { THEME_STORAGE_KEY, type ThemeChoice } from '../../contract/theme';

// Which colour scheme the page shows. A person's explicit choice is `data-theme="light|dark"` on <html> (the
// `dark:` variant in styles.css reads it); without one the system's preference applies. index.html's first script
// sets the attribute from the cached choice before the first paint; the session keeps it in step afterwards.

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Shows `choice` now and caches it for the next page load's first paint. */
export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused (private mode, quota): the choice still shows now and comes with the next sign-in.
  }
}

/** Whether the page is dark now: the explicit choice, else the system's. */
export function isDark(): boolean {
  const forced = document.documentElement.dataset.theme;
  if (forced === 'dark' || forced === 'light') return forced === 'dark';
  return window.matchMedia(DARK_QUERY).matches;
}

/** Calls `onChange` when the system scheme or the person's choice changes; returns the unsubscribe. */
export function subscribeColorScheme(onChange: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    media.removeEventListener('change', onChange);
    observer.disconnect();
  };
}
