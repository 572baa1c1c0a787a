// Texts and limits of the superuser's system prompts (chat spec: /system-prompts, whose content the spec does not
// show), free of zod (the SPA's editor checks them before sending).

export const SYSTEM_PROMPT_NAME_MAX_LENGTH = 100;
/** A bound so a pasted book cannot make every reply's prompt huge (the global policy allows 15,000). */
export const SYSTEM_PROMPT_MAX_CHARS = 20_000;

export const SYSTEM_PROMPT_NAME_REQUIRED = 'Name is required';
export const SYSTEM_PROMPT_NAME_TOO_LONG = `Name cannot be more than ${SYSTEM_PROMPT_NAME_MAX_LENGTH} characters`;
export const SYSTEM_PROMPT_CONTENT_REQUIRED = 'Prompt text is required';
export const SYSTEM_PROMPT_CONTENT_TOO_LONG = `Prompt text cannot be more than ${SYSTEM_PROMPT_MAX_CHARS.toLocaleString('en-GB')} characters`;

export const SYSTEM_PROMPT_NOT_FOUND = 'System prompt not found';
export const SYSTEM_PROMPT_CREATED = 'System prompt created successfully';
export const SYSTEM_PROMPT_UPDATED = 'System prompt updated successfully';
export const SYSTEM_PROMPT_DELETED = 'System prompt deleted successfully';
export const SYSTEM_PROMPT_ACTIVATED = 'System prompt activated successfully';
export const SYSTEM_PROMPT_DEACTIVATED = 'System prompt deactivated successfully';
export const SYSTEM_PROMPTS_FETCH_FAILED = 'Failed to fetch system prompts';
export const SYSTEM_PROMPT_SAVE_FAILED = 'Failed to save system prompt';
export const SYSTEM_PROMPT_DELETE_FAILED = 'Failed to delete system prompt';
export const SYSTEM_PROMPT_ACTIVATE_FAILED = 'Failed to activate system prompt';
export const SYSTEM_PROMPT_PREVIEW_FAILED = 'Failed to preview the system prompt';
