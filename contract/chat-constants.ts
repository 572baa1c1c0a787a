// Spec constants and texts of conversations and messages, free of zod (machines/ and the login route use them).
import type { StreamActivity } from './chat-stream';

export const CONVERSATION_PAGE_SIZE = 10;
export const SEARCH_PAGE_SIZE = 10;
export const SEARCH_MIN_CHARS = 3;
export const TITLE_MAX_LENGTH = 200;
export const DEFAULT_CONVERSATION_TITLE = 'New Conversation';
/** How many of the latest messages GET .../messages/recent returns. */
export const RECENT_MESSAGES_LIMIT = 20;
/** A generous bound on one prompt, so a pasted book is refused with a clear message instead of a 500. */
export const MESSAGE_MAX_LENGTH = 100_000;

export const MESSAGE_EMPTY = 'Message cannot be empty';
export const MESSAGE_TOO_LONG = `Message cannot be more than ${MESSAGE_MAX_LENGTH} characters`;
export const TITLE_EMPTY = 'Conversation title cannot be empty';
export const TITLE_TOO_LONG = `Conversation title cannot be more than ${TITLE_MAX_LENGTH} characters`;
export const SEARCH_TOO_SHORT = 'Type at least 3 characters to search...';
export const BROWSING_WITH_IMAGES = 'Web browsing and image generation cannot be used together.';
export const CONVERSATION_BUSY = 'This conversation is still answering. Wait for the reply to finish.';


/** The search debounce of the conversation list (spec section 9). */
export const SEARCH_DEBOUNCE_MS = 1500;

/** What the reply's place says, instead of 'Thinking', while the server is at work before the text (`event: status`). */
export const STREAM_ACTIVITY_TEXT: Record<StreamActivity, string> = {
  searching_web: 'Searching the web',
};

/** The text a failed stream shows when the server gave no better one (spec section 4). */
export const UNKNOWN_STREAM_ERROR = 'An unknown error occurred';

/** The error `code` of a question refused because the organisation's fair use of the month is spent (429). */
export const FAIR_USE_EXCEEDED_CODE = 'fair_use_exceeded';
export const FAIR_USE_EXCEEDED =
  "Your organisation has used this month's fair-use allowance of the AI. New questions can be asked again from the 1st of next month (UTC), or sooner if your administrator's subscription is raised.";
