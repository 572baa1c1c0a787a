// What the local e2e web (slow-web.ts) serves, for the tests that check it on screen.

/** How long its search takes: real searches take seconds, and the chat says 'Searching the web' meanwhile. */
export const SLOW_WEB_SEARCH_MS = 1_500;
/** The title of the one page its results name. */
export const SLOW_WEB_PAGE_TITLE = 'Harbour ferry timetable';
