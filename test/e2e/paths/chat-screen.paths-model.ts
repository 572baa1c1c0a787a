import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { PROMPT_SAVED_TO_LIBRARY } from '../../../contract/prompt-library-constants';
import type { Feature } from '../../../contract/features';
import { chatScreenMachine, type ChatScreenInput } from '../../../machines/chat-screen.machine';
import { RENAMED } from '../../../machines/conversation-list.machine';
import type { ModelPath } from '../../model/support/model-paths';
import { asSteps, chainPaths, coveringPaths, maximalPaths, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof chatScreenMachine>;
type Path = ModelPath<typeof chatScreenMachine>;

/**
 * Model conversation ids, each standing for one the browser test has in hand:
 * - SEEDED: a finished conversation (one question, its reply) seeded before the path and opened by its URL;
 * - NEW: the conversation the path's first question on the new-chat screen creates;
 * - LONG: a conversation of more than one page of messages (test/e2e/helpers/seed.ts longConversation).
 */
export const SEEDED = 'seeded';
export const NEW = 'new';
export const LONG = 'long';
/** The e2e user's package (the demo organisation is premium), and the package without image generation. */
export const PREMIUM: Feature[] = ['browsing', 'image_generation', 'reasoning'];
export const WITHOUT_IMAGES: Feature[] = ['browsing', 'reasoning'];
/** A library prompt pasted into an empty box (it fits), and into a box with a draft near the limit (it does not). */
export const FITS = 'fits';
export const TOO_LONG = 'too-long';
/** The file attached (a listed document as the upload child reports it). */
const D1 = { id: 'd1', filename: 'notes.txt', type: 'text/plain', size: 20 };

/** Tags the person's steps the model joins into one (see `answered`); stripped before the paths are kept. */
type Via = 'send' | 'delete' | 'pick' | 'remove' | 'sendFiles' | 'edit' | 'regenerate' | 'cancelDelete';
const via = (event: Step, how: Via): Step => ({ ...event, via: how });

export const POLL_DONE: Step = {
  type: 'xstate.done.actor.titlePoll',
  output: { status: 'finished', value: 'Named by the server', error: null, attempts: 1 },
  actorId: 'titlePoll',
};
const attachmentsChanged = (listed: boolean, attaching: boolean): Step => ({
  type: 'attachments.changed',
  documentIds: listed ? [D1.id] : [],
  documents: listed ? [D1] : [],
  attaching,
});

/**
 * What the person can do on the screen, by where they are. A modal open takes every click (only its own events);
 * the drawer open on a phone likewise; while a title poll runs the person waits for the name (20 s, Playwright's
 * clock). Otherwise: on the new-chat screen the features menu, a change of package, attaching and removing a file,
 * Share (refused: no conversation), the prompt library (its prompt fits the empty box) and the first question; in the
 * seeded conversation Share, the prompt library (a long draft typed first: the prompt would not fit), 'Save to
 * Personal Prompt Library', attaching a file and sending it, editing the question (its send failing, then Refresh
 * message), Regenerate stopped half-way, searching, renaming and deleting (or not) the conversation; the long
 * conversation is only scrolled up. The panel folds on a desktop, the drawer opens on a phone, anywhere.
 *
 * Some of these are one model event standing for a short run of events the machine takes in a row (the person's
 * click and what the children report): the model event is the one that changes what the model tells states apart by
 * (so the generator can go on from it), `answered` puts the others around it.
 */
function eventsFor(s: Snap): Step[] {
  const c = s.context;
  if (c.sharingFor !== null) return [{ type: 'share.close' }];
  if (c.promptsOpen) return [{ type: 'prompts.close' }, { type: 'prompt.pasted', text: c.conversationId === null ? FITS : TOO_LONG }];
  if (c.savingPrompt) return [{ type: 'prompt.saveClose' }, { type: 'xstate.done.actor.savePrompt', output: { id: 'p1' }, actorId: 'savePrompt' }];
  // The batch ends: the file is listed.
  if (c.attachments.attaching) return [attachmentsChanged(true, false)];
  if (c.titlePollFor !== null) return [POLL_DONE];
  if (s.matches({ drawer: 'open' })) return [{ type: 'drawer.close' }];
  // The first reply ends and the person waits for the name (route.changed to NEW brought the poll: see `answered`).
  if (c.conversationId === NEW) return [POLL_DONE];
  if (c.conversationId === LONG) return [{ type: 'messages.loadEarlier' }];
  const listed = c.attachments.documentIds.length > 0;
  const layout: Step[] = [{ type: 'drawer.open' }, { type: s.matches({ panel: 'expanded' }) ? 'panel.collapse' : 'panel.expand' }];
  const common: Step[] = [{ type: 'share.open' }, { type: 'prompts.open' }, ...layout];
  if (c.conversationId === null) {
    return [
      ...common,
      ...(c.entitlements.includes('browsing') ? [{ type: 'option.toggle', feature: 'browsing' }] : []),
      ...(c.entitlements.includes('image_generation') ? [{ type: 'option.toggle', feature: 'imageGeneration' }] : []),
      ...(c.entitlements.includes('reasoning') ? [{ type: 'reasoning.toggle' }] : []),
      ...(c.entitlements.length === PREMIUM.length ? [{ type: 'entitlements.changed', entitlements: WITHOUT_IMAGES }] : []),
      listed ? via(attachmentsChanged(false, false), 'remove') : via(attachmentsChanged(false, true), 'pick'),
      ...(listed ? [] : [via({ type: 'route.changed', conversationId: NEW }, 'send')]),
    ];
  }
  return [
    ...common,
    { type: 'prompt.saveOpen', text: 'The seeded question' },
    listed ? via(attachmentsChanged(false, false), 'sendFiles') : via(attachmentsChanged(false, true), 'pick'),
    via({ type: 'messages.refresh' }, 'edit'),
    via({ type: 'exchange.completed', conversationId: SEEDED, messageCount: 2 }, 'regenerate'),
    // The conversation list, where the panel shows it (a folded panel hides it).
    ...(s.matches({ panel: 'expanded' })
      ? [
          { type: 'search.change', text: 'word' },
          { type: 'conversation.rename', id: SEEDED, title: 'Renamed' },
          via({ type: 'conversation.cancelDelete' }, 'cancelDelete'),
          // With no file listed: leaving the conversation would empty the list (a report the model does not take).
          ...(listed ? [] : [via({ type: 'route.changed', conversationId: null }, 'delete')]),
        ]
      : []),
  ];
}

/**
 * The model event with the events the machine takes around it (see eventsFor), from the snapshot before it:
 * - a first question (→ NEW): the send, the conversation created, the URL following it; after it the reply ends
 *   (the first exchange: the title poll starts);
 * - deleting the open conversation (→ the new chat): asking, confirming, the list's report, then the URL;
 * - picking a file (→ attaching): the file added; in a conversation the batch's end tells the documents changed;
 * - removing the listed file (new chat): its delete; sending with the file listed (seeded): the question carrying
 *   it, then the reply ends (a later exchange);
 * - Refresh message: after an edit whose send failed; the exchange that starts a title poll in the seeded
 *   conversation: Regenerate, stopped half-way; Cancel in the delete dialog: after asking; a rename: its toast;
 *   a pasted prompt: the input box's answer (it fits, or it does not).
 */
function answered(event: Step, before: Snap): Step[] {
  const { via: how, ...plain } = event as Step & { via?: Via };
  const c = before.context;
  switch (how) {
    case 'send':
      return [{ type: 'message.submit', text: 'First question' }, { type: 'conversation.created', conversationId: NEW }, plain, { type: 'exchange.completed', conversationId: NEW, messageCount: 2 }];
    case 'delete':
      return [
        { type: 'conversation.askDelete', id: SEEDED, title: 'The seeded question' },
        { type: 'conversation.delete', id: SEEDED },
        { type: 'conversation.deleted', id: SEEDED },
        plain,
      ];
    case 'pick':
      return [{ type: 'files.add', files: [] }, plain];
    case 'remove':
      return [{ type: 'file.delete', id: D1.id }, plain];
    case 'sendFiles':
      return [
        { type: 'message.submit', text: 'Second question' },
        { type: 'documents.sent', documentIds: [D1.id] },
        plain,
        { type: 'exchange.completed', conversationId: c.conversationId, messageCount: 4 },
      ];
    case 'edit':
      return [{ type: 'message.edit', messageId: 'm1', text: 'Edited question' }, plain];
    case 'regenerate':
      return [{ type: 'message.regenerate' }, { type: 'reply.stop' }, plain];
    case 'cancelDelete':
      return [{ type: 'conversation.askDelete', id: SEEDED, title: 'The seeded question' }, plain];
    default:
      if (plain.type === 'attachments.changed' && c.attachments.attaching && c.conversationId !== null) return [{ type: 'documents.changed' }, plain];
      if (plain.type === 'prompt.pasted') return [plain, { type: plain.text === FITS ? 'composer.filled' : 'composer.fillFailed' }];
      if (plain.type === 'conversation.rename') return [plain, { type: 'notice.show', tone: 'success', text: RENAMED }];
      if (plain.type === 'xstate.done.actor.savePrompt') return [{ type: 'notice.show', tone: 'success', text: PROMPT_SAVED_TO_LIBRARY }, plain];
      return [plain];
  }
}

/** What the model tells states apart by: where the person is and what the events offered read. */
const key = (s: Snap) => {
  const c = s.context;
  return JSON.stringify([
    s.value,
    c.conversationId,
    c.sharingFor !== null,
    c.promptsOpen,
    c.savingPrompt,
    c.attachments.attaching,
    c.attachments.documentIds.length > 0,
    c.titlePollFor !== null,
    c.entitlements.length,
    c.options,
  ]);
};

/** Replays events from the input's start, with every snapshot on the way (the first is the start). */
function replay(input: ChatScreenInput, events: Step[]): Snap[] {
  let [s] = initialTransition(chatScreenMachine, input);
  const out = [s];
  for (const e of events) {
    [s] = transition(chatScreenMachine, s, e as never);
    out.push(s);
  }
  return out;
}

function expand(path: Path): Path {
  const input = path.input as ChatScreenInput;
  const snaps = replay(input, path.events as Step[]);
  const events = (path.events as Step[]).flatMap((e, i) => answered(e, snaps[i]!));
  return { ...path, events: events as never, values: [], description: events.map((e) => e.type).join(' → ') };
}

/**
 * Kept paths of one start joined: a path that ends where (by the model's key) another one passes is continued with
 * that one's rest. Most of the screen's events leave its state as it was (they go to a child), so each generated
 * path ends with one of them; joined, they cost one sign-in and page load instead of one each.
 */
function joined(paths: Path[]): Path[] {
  const endKey = (p: Path) => key(replay(p.input as ChatScreenInput, p.events as Step[]).at(-1)!);
  /** `first`'s events, then `then`'s from where it passes the state `first` ends in (null: it never does). */
  const join = (first: Path, then: Path): Path | null => {
    if (JSON.stringify(first.input) !== JSON.stringify(then.input)) return null;
    const end = endKey(first);
    const i = replay(then.input as ChatScreenInput, then.events as Step[]).findIndex((s) => key(s) === end);
    if (i < 0) return null;
    const events = [...(first.events as Step[]), ...(then.events as Step[]).slice(i)];
    return { ...first, events: events as never, description: events.map((e) => e.type).join(' → ') };
  };
  return chainPaths(paths, join);
}

export { chatScreenMachine };
const inputs: ChatScreenInput[] = [
  { conversationId: null, entitlements: PREMIUM },
  { conversationId: SEEDED, entitlements: PREMIUM },
  { conversationId: LONG, entitlements: PREMIUM },
];
export const chatScreenPaths = asSteps<ChatScreenInput>(
  joined(
    coveringPaths(
      chatScreenMachine,
      maximalPaths({
        machine: chatScreenMachine,
        inputs,
        events: eventsFor as never,
        key,
        simpleKey: (s) => JSON.stringify([s.value, s.context.conversationId, s.context.sharingFor !== null, s.context.promptsOpen, s.context.savingPrompt]),
      }).map(expand),
    ),
  ),
);
