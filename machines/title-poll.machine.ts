import { DEFAULT_CONVERSATION_TITLE } from '../contract/chat-constants';
import { pollMachine, type PollInput, type PollOutput, type PollProgress } from './poll.machine';

/**
 * Polls a new conversation's title until the server has named it (spec chat-and-session.md section 4 "Sending a
 * message", step 4: after the first exchange, up to 20 attempts, 20 seconds apart, until the title is no longer
 * 'New Conversation'; section 9 "Title polling").
 *
 * It is the poll machine (poll.machine.ts) with the stop condition "the title is named". The screen machine
 * spawns it when chat-send reports `exchange.completed` with messageCount 2:
 * `spawnChild('titlePoll', { id: 'titlePoll', input: titlePollInput(conversationId) })`, and stops it (or sends
 * `poll.stop`) when the person leaves the conversation. src/ provides `check`
 * (`defineTitlePollActors` in src/features/chat/chat-send-actors.ts): one fetch of the conversation list's first
 * page per attempt (a new conversation is on it), answering the conversation's current title.
 *
 * Each answer is reported as `poll.progress` `{ value: title }`; the output is `{ status, value: title, ... }`
 * with status 'finished' when the server named it. A failed fetch counts as an attempt and the poll goes on.
 */
export const MAX_TITLE_POLL_ATTEMPTS = 20;
export const TITLE_POLL_INTERVAL_MS = 20000;

/** The `check` actor's input. */
export interface TitlePollCheckInput {
  conversationId: string;
}

/** What a title poll reports after each fetch, and its output. */
export type TitlePollProgress = PollProgress<string>;
export type TitlePollOutput = PollOutput<string>;

/** A title the server chose: not blank and not the default one. */
export const isNamedTitle = (title: string) => title.trim() !== '' && title !== DEFAULT_CONVERSATION_TITLE;

export const titlePollMachine = pollMachine.provide({
  guards: {
    isFinished: (_, { value }) => typeof value === 'string' && isNamedTitle(value),
  },
});

/** The spec's poll for one conversation's title. */
export function titlePollInput(conversationId: string): PollInput<TitlePollCheckInput> {
  return { intervalMs: TITLE_POLL_INTERVAL_MS, maxAttempts: MAX_TITLE_POLL_ATTEMPTS, stopOnError: false, checkInput: { conversationId } };
}

export type TitlePollMachine = typeof titlePollMachine;
