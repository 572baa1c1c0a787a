import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { ConversationMessages } from '../../contract/chat';
import { createActor, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { Feature } from '../../contract/features';
import {
  chatScreenMachine,
  headerTitle,
  NO_CONVERSATION_SELECTED,
  savePromptForm,
  type ChatScreenEmitted,
  type ChatScreenInput,
} from '../../machines/chat-screen.machine';
import { notice } from '../../machines/notice';
import { PASTE_PROMPT_FAILED, PROMPT_PASTED } from '../../machines/prompt-library.machine';
import { titlePollInput } from '../../machines/title-poll.machine';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof chatScreenMachine>;
type Ev = EventFrom<typeof chatScreenMachine>;

const premium: Feature[] = ['browsing', 'image_generation', 'reasoning'];
const basic: Feature[] = ['browsing', 'reasoning'];
/** A listed file as the upload child reports it (the sent question's chip). */
const D1 = { id: 'd1', filename: 'report.txt', type: 'text/plain', size: 17 };

/** What each fake child was told; the title polls started (input) and stopped. */
let told: { send: EventObject[]; list: EventObject[]; documents: EventObject[]; upload: EventObject[] } = { send: [], list: [], documents: [], upload: [] };
let sendInputs: unknown[] = [];
let documentsInputs: unknown[] = [];
let polls: Array<{ input: unknown; stopped: boolean }> = [];
/** The Share modals' children started (input) and stopped. */
let shares: Array<{ input: unknown; stopped: boolean }> = [];
/** The Prompt Library modals' and the 'Save to Personal Prompt Library' forms' children started and stopped. */
let libraries: Array<{ input: unknown; stopped: boolean }> = [];
let saveForms: Array<{ input: unknown; stopped: boolean }> = [];
let emitted: ChatScreenEmitted[] = [];
let seen = { send: 0, list: 0, documents: 0, upload: 0, emitted: 0, polls: 0, libraries: 0 };
let prev: Snap | null = null;

const recorder = (name: 'send' | 'list' | 'documents' | 'upload') =>
  fromCallback<EventObject, unknown>(({ receive, input }) => {
    if (name === 'send') sendInputs.push(input);
    if (name === 'documents') documentsInputs.push(input);
    receive((event) => told[name].push(event));
  });

/** A spawned child that records its input and whether it was stopped. */
const child = (into: () => Array<{ input: unknown; stopped: boolean }>) =>
  fromCallback<EventObject, unknown>(({ input }) => {
    const started = { input, stopped: false };
    into().push(started);
    return () => {
      started.stopped = true;
    };
  });

const testMachine = () =>
  chatScreenMachine.provide({
    actors: {
      send: recorder('send') as never,
      list: recorder('list') as never,
      documents: recorder('documents') as never,
      upload: recorder('upload') as never,
      titlePoll: fromCallback<EventObject, unknown>(({ input }) => {
        const poll = { input, stopped: false };
        polls.push(poll);
        return () => {
          poll.stopped = true;
        };
      }) as never,
      share: child(() => shares) as never,
      prompts: child(() => libraries) as never,
      savePrompt: child(() => saveForms) as never,
    },
  });

function eventsFor(s: Snap): Ev[] {
  const events: Ev[] = [
    { type: 'route.changed', conversationId: null },
    { type: 'route.changed', conversationId: 'c1' },
    { type: 'route.changed', conversationId: 'c2' },
    { type: 'message.submit', text: 'Hello' },
    { type: 'message.edit', messageId: 'm1', text: 'Hello again' },
    { type: 'messages.refresh' },
    { type: 'messages.loadEarlier' },
    { type: 'message.regenerate' },
    { type: 'reply.stop' },
    { type: 'option.toggle', feature: 'browsing' },
    { type: 'option.toggle', feature: 'imageGeneration' },
    { type: 'reasoning.toggle' },
    { type: 'entitlements.changed', entitlements: s.context.entitlements.length === 3 ? basic : premium },
    { type: 'search.change', text: 'trip' },
    { type: 'list.loadMore' },
    { type: 'search.loadMore' },
    { type: 'conversation.rename', id: 'c1', title: 'Renamed' },
    { type: 'conversation.delete', id: 'c1' },
    { type: 'conversation.askDelete', id: 'c1', title: 'Trip' },
    { type: 'conversation.cancelDelete' },
    { type: 'conversation.created', conversationId: 'c1' },
    { type: 'exchange.completed', conversationId: 'c1', messageCount: 2 },
    { type: 'exchange.completed', conversationId: 'c1', messageCount: 4 },
    { type: 'xstate.done.actor.titlePoll', output: { status: 'finished', value: 'Trip to Penang', error: null, attempts: 3 } } as never,
    { type: 'xstate.done.actor.titlePoll', output: { status: 'gaveUp', value: 'New Conversation', error: null, attempts: 20 } } as never,
    { type: 'conversation.deleted', id: 'c1' },
    { type: 'notice.show', tone: 'success', text: 'Conversation deleted successfully' },
    { type: 'share.open' },
    { type: 'share.close' },
    { type: 'composer.filled' },
    { type: 'composer.fillFailed' },
  ];
  // The prompt modals are independent of the rest: they open from a plain screen only, and while one is open
  // only what concerns them (and a route change, which keeps them) is tried, so the paths stay few.
  const { promptsOpen, savingPrompt, titlePollFor, sharingFor } = s.context;
  const plain = titlePollFor === null && sharingFor === null && s.matches({ drawer: 'closed', panel: 'expanded' });
  const promptEvents: Ev[] = [];
  if (plain && !savingPrompt) promptEvents.push({ type: 'prompts.open' });
  if (plain && !promptsOpen) promptEvents.push({ type: 'prompt.saveOpen', text: savingPrompt ? 'Another question' : 'My question' });
  if (promptsOpen) promptEvents.push({ type: 'prompts.close' }, { type: 'prompt.pasted', text: 'Summarise this for a manager' });
  if (savingPrompt) {
    promptEvents.push({ type: 'prompt.saveClose' }, { type: 'xstate.done.actor.savePrompt', output: { id: 'p1' }, actorId: 'savePrompt' } as never);
  }
  // While files attach, only what that changes is tried: a submit (refused) and the attaching ending.
  if (s.context.attachments.attaching) {
    return [events.find((e) => e.type === 'message.submit')!, { type: 'attachments.changed', documentIds: ['d1'], documents: [D1], attaching: false }];
  }
  if (promptsOpen || savingPrompt) return [...promptEvents, { type: 'route.changed', conversationId: 'c2' }, events.find((e) => e.type === 'notice.show')!];
  events.push(...promptEvents);
  // The upload child's traffic, from a plain screen (the rest of the screen does not read it).
  if (plain) {
    const { attaching } = s.context.attachments;
    events.push(
      { type: 'files.add', files: [new File(['Quarterly figures'], 'report.txt', { type: 'text/plain' })] },
      { type: 'file.delete', id: 'd1' },
      { type: 'attachments.changed', documentIds: attaching ? ['d1'] : [], documents: attaching ? [D1] : [], attaching: !attaching },
      { type: 'documents.changed' },
      { type: 'documents.sent', documentIds: ['d1'] },
    );
  }
  if (s.matches({ drawer: 'closed' })) events.push({ type: 'drawer.open' });
  else events.push({ type: 'drawer.close' });
  if (s.matches({ panel: 'expanded' })) events.push({ type: 'panel.collapse' });
  else events.push({ type: 'panel.expand' });
  return events;
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.conversationId,
    s.context.titlePollFor !== null,
    s.context.entitlements.length,
    s.context.sharingFor,
    s.context.promptsOpen,
    s.context.savingPrompt,
    s.context.attachments.attaching,
  ]);

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as Ev | null;
  const fresh = {
    send: told.send.slice(seen.send),
    list: told.list.slice(seen.list),
    documents: told.documents.slice(seen.documents),
    upload: told.upload.slice(seen.upload),
    emitted: emitted.slice(seen.emitted),
    polls: polls.slice(seen.polls),
    libraries: libraries.slice(seen.libraries),
  };
  seen = { send: told.send.length, list: told.list.length, documents: told.documents.length, upload: told.upload.length, emitted: emitted.length, polls: polls.length, libraries: libraries.length };
  const { options, entitlements } = s.context;

  // Invariants: tags mirror the regions; options exclude each other and stay within the package.
  expect(s.hasTag('drawerOpen')).toBe(s.matches({ drawer: 'open' }));
  expect(s.hasTag('panelCollapsed')).toBe(s.matches({ panel: 'collapsed' }));
  expect(options.browsing && options.imageGeneration).toBe(false);
  if (!entitlements.includes('image_generation')) expect(options.imageGeneration).toBe(false);
  if (!entitlements.includes('reasoning')) expect(options.reasoningEffort).toBe('low');
  // The send child started once, with the conversation of the URL at start (and no page in hand here).
  expect(sendInputs).toHaveLength(1);
  expect(sendInputs[0]).toMatchObject({ opened: null });
  // So did the documents child; it hears of every conversation the URL opens.
  expect(documentsInputs).toEqual(sendInputs.map((input) => ({ conversationId: (input as { conversationId: string | null }).conversationId, parent: expect.anything() })));
  // At most one title poll runs, for the conversation named in context.
  const running = polls.filter((x) => !x.stopped);
  expect(running.length).toBe(s.context.titlePollFor === null ? running.length : 1);
  if (s.context.titlePollFor !== null) expect(running.at(-1)!.input).toEqual({ ...titlePollInput(s.context.titlePollFor), parent: expect.anything() });
  // The Share modal's child runs exactly while one is open, for the open conversation.
  const sharing = shares.filter((x) => !x.stopped);
  expect(sharing.length).toBe(s.context.sharingFor === null ? 0 : 1);
  expect(Boolean(s.children.share)).toBe(s.context.sharingFor !== null);
  if (s.context.sharingFor !== null) {
    expect(s.context.sharingFor).toBe(s.context.conversationId);
    expect(sharing[0]!.input).toEqual({ conversationId: s.context.sharingFor, parent: expect.anything() });
  }

  // The prompt library's and the save form's children run exactly while their modals are open.
  expect(libraries.filter((x) => !x.stopped)).toHaveLength(s.context.promptsOpen ? 1 : 0);
  expect(Boolean(s.children.prompts)).toBe(s.context.promptsOpen);
  const saving = saveForms.filter((x) => !x.stopped);
  expect(saving).toHaveLength(s.context.savingPrompt ? 1 : 0);
  expect(Boolean(s.children.savePrompt)).toBe(s.context.savingPrompt);

  const nothingElse = (except: Array<keyof typeof fresh>) => {
    for (const k of Object.keys(fresh) as Array<keyof typeof fresh>) if (!except.includes(k)) expect(fresh[k], k).toEqual([]);
  };

  if (!p || !event) return;
  switch (event.type) {
    case 'route.changed':
      expect(fresh.send).toEqual([{ type: 'conversation.open', conversationId: event.conversationId }]);
      expect(fresh.documents).toEqual([{ type: 'conversation.open', conversationId: event.conversationId }]);
      // The upload child hears of it too (another conversation cancels its upload and empties its list).
      expect(fresh.upload).toEqual([{ type: 'conversation.open', conversationId: event.conversationId }]);
      // Another conversation closes the Share modal; the same one keeps it.
      expect(s.context.sharingFor).toBe(p.context.sharingFor === event.conversationId ? p.context.sharingFor : null);
      expect(s.matches({ drawer: 'closed' })).toBe(true);
      expect(s.context.conversationId).toBe(event.conversationId);
      // Leaving the polled conversation stops its poll.
      if (p.context.titlePollFor !== null && p.context.titlePollFor !== event.conversationId) {
        expect(s.context.titlePollFor).toBeNull();
        expect(polls.every((x) => x.stopped)).toBe(true);
      } else {
        expect(s.context.titlePollFor).toBe(p.context.titlePollFor);
      }
      nothingElse(['send', 'documents', 'upload']);
      break;
    case 'message.submit':
      // Refused while files attach (spec section 4, rule 7); else the options and the listed files travel with it.
      expect(s.can(event)).toBe(!p.context.attachments.attaching);
      expect(fresh.send).toEqual(
        p.context.attachments.attaching
          ? []
          : [{ ...event, ...p.context.options, documentIds: p.context.attachments.documentIds, documents: p.context.attachments.documents }],
      );
      nothingElse(['send']);
      break;
    case 'files.add':
    case 'file.delete':
      expect(fresh.upload).toEqual([event]);
      nothingElse(['upload']);
      break;
    case 'attachments.changed':
      expect(s.context.attachments).toEqual({ documentIds: event.documentIds, documents: event.documents, attaching: event.attaching });
      nothingElse([]);
      break;
    case 'documents.changed':
      expect(fresh.documents).toEqual([{ type: 'documents.changed' }]);
      nothingElse(['documents']);
      break;
    case 'documents.sent':
      expect(fresh.upload).toEqual([{ type: 'attachments.sent', documentIds: event.documentIds }]);
      nothingElse(['upload']);
      break;
    case 'message.edit':
    case 'message.regenerate':
      // The options chosen travel with the text.
      expect(fresh.send).toEqual([{ ...event, ...p.context.options }]);
      nothingElse(['send']);
      break;
    case 'messages.refresh':
    case 'messages.loadEarlier':
    case 'reply.stop':
      expect(fresh.send).toEqual([event]);
      nothingElse(['send']);
      break;
    case 'option.toggle': {
      const entitled = p.context.entitlements.includes(event.feature === 'browsing' ? 'browsing' : 'image_generation');
      if (entitled) expect(options[event.feature]).toBe(!p.context.options[event.feature]);
      else expect(options).toEqual(p.context.options);
      expect(s.can(event)).toBe(entitled);
      nothingElse([]);
      break;
    }
    case 'reasoning.toggle':
      expect(options.reasoningEffort).toBe(p.context.options.reasoningEffort === 'low' ? 'medium' : 'low');
      nothingElse([]);
      break;
    case 'entitlements.changed':
      expect(entitlements).toEqual(event.entitlements);
      nothingElse([]);
      break;
    case 'search.change':
    case 'list.loadMore':
    case 'search.loadMore':
    case 'conversation.rename':
    case 'conversation.delete':
    case 'conversation.askDelete':
    case 'conversation.cancelDelete':
      expect(fresh.list).toEqual([event]);
      nothingElse(['list']);
      break;
    case 'conversation.created':
      expect(fresh.list).toEqual([{ type: 'list.refresh' }]);
      expect(fresh.emitted).toEqual([{ type: 'navigation.requested', conversationId: 'c1' }]);
      nothingElse(['list', 'emitted']);
      break;
    case 'exchange.completed':
      if (event.messageCount === 2) {
        // Listed at creation already; its name comes from the poll.
        expect(fresh.list).toEqual([]);
        expect(fresh.polls.map((x) => x.input)).toEqual([{ ...titlePollInput('c1'), parent: expect.anything() }]);
        expect(s.context.titlePollFor).toBe('c1');
      } else {
        expect(fresh.list).toEqual([{ type: 'list.refresh' }]);
        expect(fresh.polls).toEqual([]);
      }
      expect(fresh.emitted).toEqual([]);
      // A reply may have saved a generated image: the documents list is read again.
      expect(fresh.documents).toEqual([{ type: 'documents.changed' }]);
      break;
    case 'xstate.done.actor.titlePoll': {
      const output = (event as unknown as { output: { status: string; value: string } }).output;
      if (output.status === 'finished' && p.context.titlePollFor) {
        expect(fresh.list).toEqual([{ type: 'conversation.patch', id: p.context.titlePollFor, patch: { title: 'Trip to Penang' } }]);
      } else {
        expect(fresh.list).toEqual([]);
      }
      expect(s.context.titlePollFor).toBeNull();
      break;
    }
    case 'conversation.deleted':
      expect(fresh.emitted).toEqual(p.context.conversationId === 'c1' ? [{ type: 'navigation.requested', conversationId: null }] : []);
      nothingElse(['emitted']);
      break;
    case 'notice.show':
      expect(fresh.emitted).toEqual([event]);
      nothingElse(['emitted']);
      break;
    case 'share.open':
      // A new modal for the open conversation (a fresh link fetch); none on the new-chat screen.
      if (p.context.conversationId === null) {
        expect(fresh.emitted).toEqual([notice('error', NO_CONVERSATION_SELECTED)]);
        expect(s.context.sharingFor).toBeNull();
      } else {
        expect(fresh.emitted).toEqual([]);
        expect(s.context.sharingFor).toBe(p.context.conversationId);
      }
      expect(fresh.send).toEqual([]);
      expect(fresh.list).toEqual([]);
      break;
    case 'share.close':
      expect(s.context.sharingFor).toBeNull();
      nothingElse([]);
      break;
    case 'prompts.open':
      // Opening an open library keeps it (its list and search as they are).
      expect(s.context.promptsOpen).toBe(true);
      expect(fresh.libraries).toHaveLength(p.context.promptsOpen ? 0 : 1);
      nothingElse(['libraries']);
      break;
    case 'prompts.close':
      expect(s.context.promptsOpen).toBe(false);
      nothingElse([]);
      break;
    case 'prompt.pasted':
      // Only an open library pastes: the text goes to the input box and the modal closes.
      expect(fresh.emitted).toEqual(p.context.promptsOpen ? [{ type: 'composer.fill', text: event.text }] : []);
      expect(s.context.promptsOpen).toBe(false);
      nothingElse(['emitted']);
      break;
    case 'composer.filled':
    case 'composer.fillFailed':
      // The box's answer to a paste is the toast, and only that.
      expect(fresh.emitted).toEqual([event.type === 'composer.filled' ? notice('success', PROMPT_PASTED) : notice('error', PASTE_PROMPT_FAILED)]);
      nothingElse(['emitted']);
      break;
    case 'prompt.saveOpen':
      // A form with the message's text and no tags; a second message replaces the first one's form.
      expect(s.context.savingPrompt).toBe(true);
      expect(saving[0]!.input).toEqual({ ...savePromptForm(event.text), parent: expect.anything() });
      nothingElse([]);
      break;
    case 'prompt.saveClose':
    case 'xstate.done.actor.savePrompt':
      expect(s.context.savingPrompt).toBe(false);
      nothingElse([]);
      break;
    default:
      nothingElse([]);
  }
}

const inputs: ChatScreenInput[] = [
  { conversationId: null, entitlements: premium },
  { conversationId: 'c1', entitlements: basic },
];

runModelTest({
  name: 'chat-screen',
  machine: chatScreenMachine,
  testMachine,
  onActor: (actor) => {
    told = { send: [], list: [], documents: [], upload: [] };
    sendInputs = [];
    documentsInputs = [];
    polls = [];
    shares = [];
    libraries = [];
    saveForms = [];
    emitted = [];
    seen = { send: 0, list: 0, documents: 0, upload: 0, emitted: 0, polls: 0, libraries: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as ChatScreenEmitted));
  },
  inputs,
  events: eventsFor,
  key,
  simpleKey: (s) => JSON.stringify(s.value),
  checks: {
    drawer: (s, e) => {
      checkStep(s, e);
      prev = s;
    },
  },
});

describe('chat-screen (examples)', () => {
  it('starts with the options the package allows, and drops them when the package changes', () => {
    const actor = createActor(testMachine(), { input: { conversationId: null, entitlements: premium } }).start();
    actor.send({ type: 'option.toggle', feature: 'imageGeneration' });
    actor.send({ type: 'reasoning.toggle' });
    expect(actor.getSnapshot().context.options).toEqual({ browsing: false, imageGeneration: true, reasoningEffort: 'medium' });
    actor.send({ type: 'option.toggle', feature: 'browsing' });
    expect(actor.getSnapshot().context.options).toMatchObject({ browsing: true, imageGeneration: false });
    actor.send({ type: 'option.toggle', feature: 'imageGeneration' });
    actor.send({ type: 'entitlements.changed', entitlements: ['browsing'] });
    expect(actor.getSnapshot().context.options).toEqual({ browsing: false, imageGeneration: false, reasoningEffort: 'low' });
    expect(actor.getSnapshot().can({ type: 'reasoning.toggle' })).toBe(false);
  });

  it('hands the page in hand to the send child when it starts, and keeps none itself', () => {
    sendInputs = [];
    const page: ConversationMessages = { conversation: { id: 'c1', title: 'Trip', created_at: 'x', updated_at: 'x' }, messages: [], earlier_cursor: null };
    const actor = createActor(testMachine(), { input: { conversationId: 'c1', entitlements: basic, opened: page } }).start();
    expect(sendInputs).toEqual([{ conversationId: 'c1', opened: page, parent: actor }]);
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('Trip');
  });

  it('names the header from the list first, then the loaded title', () => {
    expect(headerTitle(null, 'x', 'y')).toBeNull();
    expect(headerTitle('c1', 'Listed', 'Loaded')).toBe('Listed');
    expect(headerTitle('c1', undefined, 'Loaded')).toBe('Loaded');
    expect(headerTitle('c1', undefined, null)).toBe('New Conversation');
  });
});
