import { assertEvent, assign, emit, enqueueActions, not, sendTo, setup, type DoneActorEvent, type EventObject } from 'xstate';
import type { Feature } from '../contract/features';
import type { ConversationMessages, MessageDocument, ReasoningEffort } from '../contract/chat';
import { DEFAULT_CONVERSATION_TITLE } from '../contract/chat-constants';
import { PROMPT_SAVED_TO_LIBRARY } from '../contract/prompt-library-constants';
import { chatSendMachine, type ChatSendReported } from './chat-send.machine';
import { chatToolsMachine } from './chat-tools.machine';
import { conversationDocumentsMachine, NO_CONVERSATION_SELECTED } from './conversation-documents.machine';
import { conversationListMachine, type ConversationListReported } from './conversation-list.machine';
import { notice, type Notice } from './notice';
import { promptFormMachine } from './prompt-form.machine';
import { PASTE_PROMPT_FAILED, PROMPT_PASTED, promptLibraryMachine, SAVE_PROMPT_FAILED } from './prompt-library.machine';
import { shareMachine } from './share.machine';
import { titlePollInput, titlePollMachine, type TitlePollOutput } from './title-poll.machine';
import { uploadMachine, type UploadReported } from './upload.machine';

/**
 * The chat screen (spec chat-and-session.md section 2 "Chat screen", 4): the one machine the views talk to.
 *
 * Children, and what passes between them here (never in a view):
 * - `send` (chat-send, invoked): the open conversation's messages and the send/stream cycle. The URL says which
 *   conversation is open: `route.changed` opens it (a new chat with null), which also cancels a send in flight.
 * - `list` (conversation-list, invoked): the sidebar's conversations and search results.
 * - `documents` (conversation-documents, invoked): the open conversation's documents (the 'N Document(s)' header
 *   button, the Attached Documents modal, Delete Document, downloads). `route.changed` tells it the conversation;
 *   `refreshDocuments` (`documents.changed`) after a completed exchange (a generated image is a new document) and
 *   when an upload finished. The views send the modal's events to it directly.
 * - `upload` (upload, invoked): the input box's attachments (machines/upload.machine.ts): `files.add` and
 *   `file.delete` are forwarded to it, `route.changed` tells it the conversation (another one cancels an upload in
 *   flight and empties the list). It reports `attachments.changed` (kept in `attachments`: `message.submit` is
 *   refused while a batch is attaching, and a submit carries the listed ids as `documentIds` and the files as
 *   `documents`, the chips the question shows) and
 *   `documents.changed` (an upload or a delete changed the open conversation's documents -> `refreshDocuments`).
 *   When chat-send took a message carrying attachments (`documents.sent`), the list lets go of them
 *   (`attachments.sent`).
 * - `tools` (chat-tools, invoked): what the server's tools can do (web browsing set up, demo images), read by the
 *   input box's feature controls.
 * - `titlePoll` (title poll, spawned): after a conversation's first exchange, until the server has named it.
 *   Leaving that conversation stops it.
 * - `share` (share, spawned): the Share modal of the open conversation, from `share.open` to `share.close`
 *   (`sharingFor` says which conversation); opening another conversation closes it. `share.open` without a
 *   conversation shows 'No conversation selected'.
 * - `prompts` (prompt library, spawned): the Prompt Library modal, from `prompts.open` to `prompts.close`. Its
 *   `prompt.pasted` -> the view is asked to put the text in the input box (`composer.fill`) and the modal closes;
 *   the box answers `composer.filled` (taken at the cursor: 'Prompt pasted to chat') or `composer.fillFailed` (the
 *   message would be too long, so nothing changed: 'Failed to paste prompt to chat').
 * - `savePrompt` (prompt form, spawned): 'Save to Personal Prompt Library' for one of the person's own messages,
 *   from `prompt.saveOpen` to `prompt.saveClose`, or until it saved ('Prompt saved to library successfully').
 * Routing: `conversation.created` -> the list reloads what it shows (the new one appears with the server's own
 * data) and the view is asked to navigate to it; `exchange.completed` -> for a first exchange title polling
 * starts, for a later one the list reloads (the conversation is the most recently active); the poll's named title -> the list shows
 * it; `conversation.deleted` of the open conversation -> the view is asked to go to a new chat. Every child's
 * `notice.show` is passed on to the view, which shows toasts.
 *
 * Its own state: the options a send carries (browsing and image generation exclude each other; reasoning effort
 * flips low/medium), each only when the person's package includes it (`entitlements`, computed by the server);
 * the phone drawer (`drawer.open` / `drawer.closed`, tag `drawerOpen`) and the desktop panel (`panel.expanded` /
 * `panel.collapsed`, tag `panelCollapsed`).
 *
 * Views send the person's actions here, read tags, `can()` and narrow selectors of this machine and of its
 * children (`snapshot.children.send`, `.list`), and listen to `notice.show` and `navigation.requested`.
 */

/** What a send carries besides the text (spec section 4 "Features"). */
export interface ChatOptions {
  browsing: boolean;
  imageGeneration: boolean;
  reasoningEffort: ReasoningEffort;
}

export const DEFAULT_OPTIONS: ChatOptions = { browsing: false, imageGeneration: false, reasoningEffort: 'low' };

export interface ChatScreenInput {
  conversationId: string | null;
  /** The person's `features` (GET /users/me). */
  entitlements: Feature[];
  /** The conversation's latest page, already loaded: `send` starts with it (chat-send.machine.ts, "A page in hand"). */
  opened?: ConversationMessages | null;
}

/** The input's page in hand, read from the start event (the one `send` is invoked with); the screen keeps none. */
const openedAtStart = (event: EventObject) =>
  event.type === 'xstate.init' ? ((event as EventObject & { input: ChatScreenInput }).input.opened ?? null) : null;

/** Spec section 8, Sharing (and Documents): Share pressed on the new-chat screen. */
export { NO_CONVERSATION_SELECTED };

export interface ChatScreenContext {
  conversationId: string | null;
  /** The conversation whose Share modal is open (its `share` child runs), else null. */
  sharingFor: string | null;
  entitlements: Feature[];
  options: ChatOptions;
  /** The conversation the running title poll is for (null when none runs). */
  titlePollFor: string | null;
  /** The Prompt Library modal is open (its `prompts` child runs). */
  promptsOpen: boolean;
  /** 'Save to Personal Prompt Library' is open (its `savePrompt` child runs). */
  savingPrompt: boolean;
  /** What the `upload` child last reported: the listed (ready) documents and whether a batch is attaching. */
  attachments: { documentIds: string[]; documents: MessageDocument[]; attaching: boolean };
}

/** 'Save to Personal Prompt Library': the message's text, with no tags yet. */
export const savePromptForm = (text: string) => ({
  id: null,
  prompt: text,
  tagsText: '',
  texts: { saved: PROMPT_SAVED_TO_LIBRARY, failed: SAVE_PROMPT_FAILED },
});

export type OptionFeature = 'browsing' | 'imageGeneration';

export type ChatScreenEvent =
  // From the view: the person's actions.
  | { type: 'route.changed'; conversationId: string | null }
  | { type: 'message.submit'; text: string }
  | { type: 'message.edit'; messageId: string; text: string }
  | { type: 'messages.refresh' }
  /** The reader reached the top of the loaded messages (chat-send decides whether an earlier page loads). */
  | { type: 'messages.loadEarlier' }
  /** Stop the reply being written; Regenerate the last reply (chat-send decides when either is possible). */
  | { type: 'reply.stop' }
  | { type: 'message.regenerate' }
  | { type: 'option.toggle'; feature: OptionFeature }
  | { type: 'reasoning.toggle' }
  | { type: 'entitlements.changed'; entitlements: Feature[] }
  | { type: 'drawer.open' }
  | { type: 'drawer.close' }
  | { type: 'panel.collapse' }
  | { type: 'panel.expand' }
  | { type: 'search.change'; text: string }
  | { type: 'list.loadMore' }
  | { type: 'search.loadMore' }
  | { type: 'conversation.rename'; id: string; title: string }
  | { type: 'conversation.delete'; id: string }
  | { type: 'conversation.askDelete'; id: string; title: string }
  | { type: 'conversation.cancelDelete' }
  | { type: 'share.open' }
  | { type: 'share.close' }
  | { type: 'prompts.open' }
  | { type: 'prompts.close' }
  /** Save one of the person's own messages (its text) to the prompt library. */
  | { type: 'prompt.saveOpen'; text: string }
  | { type: 'prompt.saveClose' }
  /** Files picked, dropped or pasted into the input box; a listed file's delete button. */
  | { type: 'files.add'; files: File[] }
  | { type: 'file.delete'; id: string }
  /** The input box took a pasted prompt (`composer.fill`), or could not. */
  | { type: 'composer.filled' }
  | { type: 'composer.fillFailed' }
  // From the children.
  | { type: 'prompt.pasted'; text: string }
  | DoneActorEvent<unknown, 'savePrompt'>
  | ChatSendReported
  | ConversationListReported
  | UploadReported
  | { type: 'poll.progress'; value: unknown }
  | DoneActorEvent<TitlePollOutput, 'titlePoll'>;

export type ChatScreenEmitted =
  | Notice
  | { type: 'navigation.requested'; conversationId: string | null }
  /** Put this text in the input box (a prompt pasted from the library). */
  | { type: 'composer.fill'; text: string };

const featureOf: Record<OptionFeature, Feature> = { browsing: 'browsing', imageGeneration: 'image_generation' };

/**
 * The options left once the package no longer includes some of them: the same object when none is dropped, so a
 * view selecting `options` does not render again when the package is told again unchanged (every screen start).
 */
function allowedOptions(options: ChatOptions, entitlements: Feature[]): ChatOptions {
  const allowed: ChatOptions = {
    browsing: options.browsing && entitlements.includes('browsing'),
    imageGeneration: options.imageGeneration && entitlements.includes('image_generation'),
    reasoningEffort: entitlements.includes('reasoning') ? options.reasoningEffort : 'low',
  };
  const same = allowed.browsing === options.browsing && allowed.imageGeneration === options.imageGeneration && allowed.reasoningEffort === options.reasoningEffort;
  return same ? options : allowed;
}

export const chatScreenMachine = setup({
  types: {
    context: {} as ChatScreenContext,
    events: {} as ChatScreenEvent,
    input: {} as ChatScreenInput,
    emitted: {} as ChatScreenEmitted,
    tags: {} as 'drawerOpen' | 'panelCollapsed',
    children: {} as {
      send: 'send';
      list: 'list';
      documents: 'documents';
      upload: 'upload';
      tools: 'tools';
      titlePoll: 'titlePoll';
      share: 'share';
      prompts: 'prompts';
      savePrompt: 'savePrompt';
    },
  },
  actors: {
    send: chatSendMachine,
    list: conversationListMachine,
    documents: conversationDocumentsMachine,
    upload: uploadMachine,
    tools: chatToolsMachine,
    titlePoll: titlePollMachine,
    share: shareMachine,
    prompts: promptLibraryMachine,
    savePrompt: promptFormMachine,
  },
  guards: {
    hasConversation: ({ context }) => context.conversationId !== null,
    isEntitledOption: ({ context, event }) => {
      assertEvent(event, 'option.toggle');
      return context.entitlements.includes(featureOf[event.feature]);
    },
    isEntitledReasoning: ({ context }) => context.entitlements.includes('reasoning'),
    isOpenConversation: ({ context, event }) => {
      assertEvent(event, 'conversation.deleted');
      return event.id === context.conversationId;
    },
    isPromptsOpen: ({ context }) => context.promptsOpen,
    isSavingPrompt: ({ context }) => context.savingPrompt,
    /** Spec section 4, rule 7: no send while files are attaching. */
    isAttaching: ({ context }) => context.attachments.attaching,
    isFirstExchange: ({ event }) => {
      assertEvent(event, 'exchange.completed');
      return event.messageCount === 2;
    },
  },
  actions: {
    toggleOption: assign(({ context, event }) => {
      assertEvent(event, 'option.toggle');
      const on = !context.options[event.feature];
      const other: OptionFeature = event.feature === 'browsing' ? 'imageGeneration' : 'browsing';
      return { options: { ...context.options, [event.feature]: on, [other]: on ? false : context.options[other] } };
    }),
    toggleReasoning: assign(({ context }) => ({
      options: { ...context.options, reasoningEffort: context.options.reasoningEffort === 'low' ? ('medium' as const) : ('low' as const) },
    })),
    setEntitlements: assign(({ context, event }) => {
      assertEvent(event, 'entitlements.changed');
      return { entitlements: event.entitlements, options: allowedOptions(context.options, event.entitlements) };
    }),
    /** Leaving a conversation stops its title poll; coming back to it (or staying) keeps it. */
    openRoute: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'route.changed');
      if (context.titlePollFor !== null && context.titlePollFor !== event.conversationId) {
        enqueue.stopChild('titlePoll');
        enqueue.assign({ titlePollFor: null });
      }
      if (context.sharingFor !== null && context.sharingFor !== event.conversationId) {
        enqueue.stopChild('share');
        enqueue.assign({ sharingFor: null });
      }
      enqueue.assign({ conversationId: event.conversationId });
      enqueue.sendTo('send', { type: 'conversation.open', conversationId: event.conversationId });
      enqueue.sendTo('documents', { type: 'conversation.open', conversationId: event.conversationId });
      enqueue.sendTo('upload', { type: 'conversation.open', conversationId: event.conversationId });
      enqueue.raise({ type: 'drawer.close' });
    }),
    startTitlePoll: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'exchange.completed');
      if (context.titlePollFor !== null) enqueue.stopChild('titlePoll');
      enqueue.spawnChild('titlePoll', { id: 'titlePoll', input: { ...titlePollInput(event.conversationId), parent: self } });
      enqueue.assign({ titlePollFor: event.conversationId });
    }),
    /** Only a poll that saw the server's name has something to show; one that gave up leaves the list as it is. */
    showPolledTitle: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'xstate.done.actor.titlePoll');
      if (event.output.status !== 'finished' || context.titlePollFor === null || event.output.value === undefined) return;
      enqueue.sendTo('list', { type: 'conversation.patch', id: context.titlePollFor, patch: { title: event.output.value } });
    }),
    /** Used where `hasConversation` passed. */
    openShare: enqueueActions(({ context, enqueue, self }) => {
      if (context.sharingFor !== null) enqueue.stopChild('share');
      enqueue.spawnChild('share', { id: 'share', input: { conversationId: context.conversationId as string, parent: self } });
      enqueue.assign({ sharingFor: context.conversationId });
    }),
    closeShare: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('share');
      enqueue.assign({ sharingFor: null });
    }),
    openPrompts: enqueueActions(({ enqueue, self }) => {
      enqueue.spawnChild('prompts', { id: 'prompts', input: { parent: self } });
      enqueue.assign({ promptsOpen: true });
    }),
    closePrompts: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('prompts');
      enqueue.assign({ promptsOpen: false });
    }),
    /** A second message replaces the first one's form. */
    openSavePrompt: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'prompt.saveOpen');
      if (context.savingPrompt) enqueue.stopChild('savePrompt');
      enqueue.spawnChild('savePrompt', { id: 'savePrompt', input: { ...savePromptForm(event.text), parent: self } });
      enqueue.assign({ savingPrompt: true });
    }),
    closeSavePrompt: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('savePrompt');
      enqueue.assign({ savingPrompt: false });
    }),
    forwardToSend: sendTo('send', ({ context, event }) => {
      assertEvent(event, ['message.submit', 'message.edit', 'message.regenerate', 'messages.refresh', 'messages.loadEarlier', 'reply.stop']);
      // What asks the model for a reply carries the options of the screen.
      if (event.type === 'message.submit') {
        // The question shows the files it carries (chips) from the moment it is sent.
        const { documentIds, documents } = context.attachments;
        return { ...event, ...context.options, documentIds, documents };
      }
      return event.type === 'message.edit' || event.type === 'message.regenerate' ? { ...event, ...context.options } : event;
    }),
    forwardToUpload: sendTo('upload', ({ event }) => {
      assertEvent(event, ['files.add', 'file.delete']);
      return event;
    }),
    /** The open conversation's documents may have changed (a reply saved a generated image, an upload finished). */
    refreshDocuments: sendTo('documents', { type: 'documents.changed' }),
    forwardToList: sendTo('list', ({ event }) => {
      assertEvent(event, [
        'search.change',
        'list.loadMore',
        'search.loadMore',
        'conversation.rename',
        'conversation.delete',
        'conversation.askDelete',
        'conversation.cancelDelete',
      ]);
      return event;
    }),
  },
}).createMachine({
  id: 'chatScreen',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    entitlements: input.entitlements,
    options: allowedOptions(DEFAULT_OPTIONS, input.entitlements),
    titlePollFor: null,
    sharingFor: null,
    promptsOpen: false,
    savingPrompt: false,
    attachments: { documentIds: [], documents: [], attaching: false },
  }),
  invoke: [
    { id: 'send', src: 'send', input: ({ context, event, self }) => ({ conversationId: context.conversationId, opened: openedAtStart(event), parent: self }) },
    { id: 'list', src: 'list', input: ({ self }) => ({ parent: self }) },
    { id: 'documents', src: 'documents', input: ({ context, self }) => ({ conversationId: context.conversationId, parent: self }) },
    { id: 'upload', src: 'upload', input: ({ context, self }) => ({ conversationId: context.conversationId, parent: self }) },
    // What the server's tools can do (browsing set up, demo images): the input box reads it from this child.
    { id: 'tools', src: 'tools' },
  ],
  type: 'parallel',
  on: {
    'route.changed': { actions: 'openRoute' },
    'message.submit': { guard: not('isAttaching'), actions: 'forwardToSend' },
    'message.edit': { actions: 'forwardToSend' },
    'messages.refresh': { actions: 'forwardToSend' },
    'messages.loadEarlier': { actions: 'forwardToSend' },
    'message.regenerate': { actions: 'forwardToSend' },
    'reply.stop': { actions: 'forwardToSend' },
    'files.add': { actions: 'forwardToUpload' },
    'file.delete': { actions: 'forwardToUpload' },
    'attachments.changed': {
      actions: assign(({ event }) => ({ attachments: { documentIds: event.documentIds, documents: event.documents, attaching: event.attaching } })),
    },
    'documents.changed': { actions: 'refreshDocuments' },
    'documents.sent': { actions: sendTo('upload', ({ event }) => ({ type: 'attachments.sent' as const, documentIds: event.documentIds })) },
    'option.toggle': { guard: 'isEntitledOption', actions: 'toggleOption' },
    'reasoning.toggle': { guard: 'isEntitledReasoning', actions: 'toggleReasoning' },
    'entitlements.changed': { actions: 'setEntitlements' },
    'search.change': { actions: 'forwardToList' },
    'list.loadMore': { actions: 'forwardToList' },
    'search.loadMore': { actions: 'forwardToList' },
    'conversation.rename': { actions: 'forwardToList' },
    'conversation.delete': { actions: 'forwardToList' },
    'conversation.askDelete': { actions: 'forwardToList' },
    'conversation.cancelDelete': { actions: 'forwardToList' },
    'share.open': [{ guard: 'hasConversation', actions: 'openShare' }, { actions: emit(notice('error', NO_CONVERSATION_SELECTED)) }],
    'share.close': { actions: 'closeShare' },
    'prompts.open': { guard: not('isPromptsOpen'), actions: 'openPrompts' },
    'prompts.close': { guard: 'isPromptsOpen', actions: 'closePrompts' },
    'prompt.pasted': {
      guard: 'isPromptsOpen',
      actions: [emit(({ event }) => ({ type: 'composer.fill' as const, text: event.text })), 'closePrompts'],
    },
    'composer.filled': { actions: emit(notice('success', PROMPT_PASTED)) },
    'composer.fillFailed': { actions: emit(notice('error', PASTE_PROMPT_FAILED)) },
    'prompt.saveOpen': { actions: 'openSavePrompt' },
    'prompt.saveClose': { guard: 'isSavingPrompt', actions: 'closeSavePrompt' },
    'xstate.done.actor.savePrompt': { actions: 'closeSavePrompt' },
    'conversation.created': {
      actions: [
        sendTo('list', { type: 'list.refresh' }),
        emit(({ event }) => ({ type: 'navigation.requested' as const, conversationId: event.conversationId })),
      ],
    },
    // A first exchange's conversation was listed when it was created, and its name comes from the title poll; a
    // later one moves the conversation to the top (most recent activity).
    'exchange.completed': [
      { guard: 'isFirstExchange', actions: ['startTitlePoll', 'refreshDocuments'] },
      { actions: [sendTo('list', { type: 'list.refresh' }), 'refreshDocuments'] },
    ],
    'xstate.done.actor.titlePoll': { actions: ['showPolledTitle', assign({ titlePollFor: null })] },
    'conversation.deleted': {
      guard: 'isOpenConversation',
      actions: emit({ type: 'navigation.requested' as const, conversationId: null }),
    },
    'notice.show': { actions: emit(({ event }) => event) },
  },
  states: {
    drawer: {
      description: 'The conversation drawer on a phone.',
      initial: 'closed',
      states: {
        closed: { description: 'On a phone the conversation list is hidden behind its menu button.', on: { 'drawer.open': 'open' } },
        open: { description: 'On a phone the conversation list is shown over the chat.', tags: ['drawerOpen'], on: { 'drawer.close': 'closed' } },
      },
    },
    panel: {
      description: 'The conversation panel on a desktop.',
      initial: 'expanded',
      states: {
        expanded: { description: 'On a desktop the conversation list is shown beside the chat.', on: { 'panel.collapse': 'collapsed' } },
        collapsed: { description: 'On a desktop the conversation list is folded away, leaving the chat the full width.', tags: ['panelCollapsed'], on: { 'panel.expand': 'expanded' } },
      },
    },
  },
});

export type ChatScreenMachine = typeof chatScreenMachine;

/** The header's title: the list's (freshest: renames, the polled title), else the one loaded with the messages. */
export function headerTitle(conversationId: string | null, listed: string | undefined, loaded: string | null): string | null {
  if (conversationId === null) return null;
  return listed ?? loaded ?? DEFAULT_CONVERSATION_TITLE;
}
