// Stands in for react-aria's private i18n/useDefaultLocale module (scripts/app-locale-plugin.ts puts it there).
// Tanya's interface is English only (index.html says lang="en"), so react-aria's own words (the hidden "Dismiss"
// buttons of popovers, for instance) and its text direction follow that language, not the browser's: a French
// browser would otherwise have screen readers read "Rejeter" on an English page. Its original also asked
// Intl.DateTimeFormat whether the browser's language is supported while the module loads, and the first Intl call
// of a page loads ICU's data: 10–20 ms of every page load's main thread, before the first paint.
// The date picker keeps its own locale (src/ui/date-picker.tsx, I18nProvider en-GB).

interface Locale {
  locale: string;
  direction: 'ltr' | 'rtl';
}

const APP_LOCALE: Locale = { locale: 'en-US', direction: 'ltr' };

export function getDefaultLocale(): Locale {
  return APP_LOCALE;
}

export function useDefaultLocale(): Locale {
  return APP_LOCALE;
}
