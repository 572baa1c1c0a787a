// Spec texts and limits of the personal prompt library, free of zod (the SPA's forms check them before sending).
import { groupedNumber } from '../shared/grouped-number';

/** Spec section 9: 10 per page (the SPA asks for 50 while searching). */
export const PROMPT_PAGE_SIZE = 10;
export const PROMPT_MAX_LENGTH = 20_000;
export const PROMPT_MAX_TAGS = 20;
export const TAG_MAX_LENGTH = 50;

export const PROMPT_REQUIRED = 'Prompt is required';
export const TAG_REQUIRED = 'At least one tag is required';
export const PROMPT_TOO_LONG = `Prompt cannot be more than ${groupedNumber(PROMPT_MAX_LENGTH)} characters`;
export const TOO_MANY_TAGS = `A prompt can have at most ${PROMPT_MAX_TAGS} tags`;
export const TAG_TOO_LONG = `A tag cannot be more than ${TAG_MAX_LENGTH} characters`;
export const PROMPT_NOT_FOUND = 'Prompt not found';
/** 413 past PROMPT_LIBRARY_MAX_PROMPTS. */
export const promptLibraryFull = (maxPrompts: number) =>
  `Your prompt library is full (${groupedNumber(maxPrompts)} prompts). Delete prompts you no longer need to save new ones.`;
/** 413 past PROMPT_LIBRARY_MAX_CHARS, counted over every prompt of the library. */
export const promptLibraryTooLong = (maxChars: number) =>
  `Your prompt library is full (${groupedNumber(maxChars)} characters in all). Delete or shorten prompts to save this one.`;
/** 429 past PROMPT_RATE_LIMIT_PER_USER, given the wait ("1 minute"). */
export const tooManyPromptSaves = (wait: string) => `Too many prompts saved. Please try again in ${wait}.`;

export const PROMPT_SAVED = 'Prompt saved successfully';
export const PROMPT_UPDATED = 'Prompt updated successfully';
export const PROMPT_DELETED = 'Prompt deleted successfully';
/** Saved from a message of the chat ('Save to Personal Prompt Library'). */
export const PROMPT_SAVED_TO_LIBRARY = 'Prompt saved to library successfully';
