/** The router's basename: the build's base path (BASE_PATH) without its trailing slash, '/' at the root. */
export const routerBasename = import.meta.env.BASE_URL.replace(/\/$/, '') || '/';
