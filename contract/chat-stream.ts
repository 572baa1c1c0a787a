import { z } from 'zod';

// The chat stream's records (ARCHITECTURE.md "Chat streaming protocol"), apart from the rest of contract/chat.ts:
// the SPA checks every record it reads against these, and loads them (and zod with them) with the first send
// instead of with the chat screen (src/api/chat-stream.ts).

/** First `data:` record. message_id is the assistant message being written. */
export const streamControl = z.object({
  conversation_id: z.string(),
  message_id: z.string(),
  user_message_id: z.string(),
});
export type StreamControl = z.infer<typeof streamControl>;

export const streamErrorType = z.enum(['llm', 'max-tokens', 'unknown']);
export type StreamErrorType = z.infer<typeof streamErrorType>;

/** `event: error` */
export const streamError = z.object({ type: streamErrorType, message: z.string() });
export type StreamError = z.infer<typeof streamError>;

export const usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() });
export type Usage = z.infer<typeof usage>;

/** `event: done`; `stopped`: the person stopped the reply (POST /chat/messages/{id}/stop), the text so far is kept. */
export const streamDone = z.object({ message_id: z.string(), usage, stopped: z.boolean() });
export type StreamDone = z.infer<typeof streamDone>;

/**
 * `event: status`: what the server is doing before the reply's first words, when that takes a while (a send with web
 * browsing searches and reads pages first). Text replaces it; the client shows STREAM_ACTIVITY_TEXT for it.
 */
export const streamActivity = z.enum(['searching_web']);
export type StreamActivity = z.infer<typeof streamActivity>;
export const streamStatus = z.object({ activity: streamActivity });
export type StreamStatus = z.infer<typeof streamStatus>;

/** A text delta: each `data:` record after the control record is one JSON string. */
export const streamText = z.string();
