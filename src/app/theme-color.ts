/** The spec's theme colours. */
export const THEME = {
  primary: 'rgb(222, 200, 78)',
  light: '#F9F9F9',
  dark: '#1f2937',
  chatLight: '#E5E7EB',
  chatDark: '#111827',
} as const;

/** Primary on Login and SsoCallback; chat shades on routes whose name contains "chat"; else light or dark. */
export function themeColorFor(routeName: string | undefined, prefersDark: boolean): string {
  if (routeName === 'Login' || routeName === 'SsoCallback') return THEME.primary;
  if (routeName?.toLowerCase().includes('chat')) return prefersDark ? THEME.chatDark : THEME.chatLight;
  return prefersDark ? THEME.dark : THEME.light;
}
