import { useEffect } from 'react';
import { themeColorFor } from './theme-color';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Keeps `<meta name="theme-color">` right for the route, and again whenever the system scheme changes. */
export function useThemeColor(routeName: string | undefined) {
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const apply = () => {
      let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
      if (!meta) {
        meta = document.createElement('meta');
        meta.name = 'theme-color';
        document.head.append(meta);
      }
      meta.content = themeColorFor(routeName, media.matches);
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [routeName]);
}
