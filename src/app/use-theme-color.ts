import { useEffect } from 'react';
import { isDark, subscribeColorScheme } from '../lib/color-scheme';
import { themeColorFor } from './theme-color';

/**
 * Keeps `<meta name="theme-color">` right for the route, and again whenever the page's scheme changes (the
 * system's, or the person's theme choice).
 */
export function useThemeColor(routeName: string | undefined) {
  useEffect(() => {
    const apply = () => {
      let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
      if (!meta) {
        meta = document.createElement('meta');
        meta.name = 'theme-color';
        document.head.append(meta);
      }
      meta.content = themeColorFor(routeName, isDark());
    };
    apply();
    return subscribeColorScheme(apply);
  }, [routeName]);
}
