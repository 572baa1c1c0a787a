import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { SystemPrompt, SystemPromptPreview } from '../../contract/system-prompts';
import {
  SYSTEM_PROMPT_ACTIVATE_FAILED,
  SYSTEM_PROMPT_ACTIVATED,
  SYSTEM_PROMPT_CONTENT_REQUIRED,
  SYSTEM_PROMPT_CONTENT_TOO_LONG,
  SYSTEM_PROMPT_CREATED,
  SYSTEM_PROMPT_DEACTIVATED,
  SYSTEM_PROMPT_DELETE_FAILED,
  SYSTEM_PROMPT_DELETED,
  SYSTEM_PROMPT_MAX_CHARS,
  SYSTEM_PROMPT_NAME_REQUIRED,
  SYSTEM_PROMPT_NAME_TOO_LONG,
  SYSTEM_PROMPT_PREVIEW_FAILED,
  SYSTEM_PROMPT_SAVE_FAILED,
  SYSTEM_PROMPT_UPDATED,
  SYSTEM_PROMPTS_FETCH_FAILED,
} from '../../contract/system-prompts-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { recordEditorMachine } from '../../machines/record-editor.machine';
import {
  CLIENT_CHOICES_FAILED,
  promptEvents,
  saveSystemPromptRequestOf,
  systemPromptErrors,
  systemPromptsEditorInput,
  systemPromptsListInput,
  systemPromptsMachine,
  type ClientChoice,
  type SaveSystemPromptRequest,
  type SystemPromptAct,
  type SystemPromptDraft,
} from '../../machines/system-prompts.machine';
import { pendingActor } from './support/fakes';
import { actOutcomes, recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';

// The page: the parent (preview, clients, the editor's toasts passed on), with the editor as a fake child.

type PageSnap = SnapshotFrom<typeof systemPromptsMachine>;
type PageEv = EventFrom<typeof systemPromptsMachine>;

const composed: SystemPromptPreview = { system_prompt: 'Base.\n\nBe brief.', active_prompt_id: 'p1' };
const clients: ClientChoice[] = [{ id: 'c1', name: 'Acme' }];
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });

const page = {
  editorInputs: [] as unknown[],
  previews: [] as Array<{ clientId: string | null }>,
  clientReads: 0,
  emitted: [] as Notice[],
};
let seen = { previews: 0, emitted: 0 };
let prevPage: PageSnap | null = null;

const pageTestMachine = () =>
  systemPromptsMachine.provide({
    actors: {
      editor: fromCallback<EventObject, unknown>(({ input }) => {
        page.editorInputs.push(input);
      }) as never,
      preview: pendingActor<SystemPromptPreview, { clientId: string | null }>((i) => page.previews.push(i)),
      clients: pendingActor<ClientChoice[], void>(() => page.clientReads++),
    },
  });

function pageEvents(s: PageSnap): PageEv[] {
  const always: PageEv[] = [
    { type: 'preview.choose', clientId: 'c1' },
    { type: 'preview.choose', clientId: null },
    { type: 'preview.retry' },
    notice('success', SYSTEM_PROMPT_ACTIVATED),
    notice('error', SYSTEM_PROMPT_SAVE_FAILED),
    { type: 'xstate.done.actor.clients', output: clients, actorId: 'clients' } as never,
    { type: 'xstate.error.actor.clients', error: dropped, actorId: 'clients' } as never,
  ];
  if (s.matches('previewing')) {
    return [
      ...always,
      { type: 'xstate.done.actor.preview', output: composed, actorId: 'preview' } as never,
      { type: 'xstate.error.actor.preview', error: dropped, actorId: 'preview' } as never,
    ];
  }
  return always;
}

function checkPage(s: PageSnap, e: { type: string } | null) {
  const p = prevPage;
  const event = e as (PageEv & Record<string, unknown>) | null;
  const freshPreviews = page.previews.slice(seen.previews);
  const out = page.emitted.slice(seen.emitted);
  seen = { previews: page.previews.length, emitted: page.emitted.length };

  // The editor runs for the page's whole life with the prompts' input and reports to the page; the clients are read once.
  expect(page.editorInputs).toEqual([{ ...systemPromptsEditorInput, parent: expect.anything() }]);
  expect(page.clientReads).toBe(1);
  expect(s.hasTag('previewing')).toBe(s.matches('previewing'));
  if (s.matches('failed')) expect(s.can({ type: 'preview.retry' })).toBe(true);

  const expected: Notice[] = [];
  switch (event?.type) {
    case null:
    case undefined:
      expect(freshPreviews).toEqual([{ clientId: null }]);
      break;
    case 'preview.choose':
      // Another client's people: their composed prompt is read, the one shown is dropped.
      expect(s.context.previewClientId).toBe(event.clientId);
      expect(s.context.preview).toBeNull();
      expect(freshPreviews).toEqual([{ clientId: event.clientId }]);
      break;
    case 'preview.retry':
      expect(freshPreviews).toEqual(p!.matches('failed') ? [{ clientId: s.context.previewClientId }] : []);
      break;
    case 'notice.show':
      expected.push(event as unknown as Notice);
      // A change done may change the composed prompt: it is read again (the one shown stays meanwhile).
      if ((event as unknown as Notice).tone === 'success') {
        expect(s.matches('previewing')).toBe(true);
        expect(freshPreviews).toEqual([{ clientId: s.context.previewClientId }]);
        expect(s.context.preview).toEqual(p!.context.preview);
      } else {
        expect(s.value).toEqual(p!.value);
        expect(freshPreviews).toEqual([]);
      }
      break;
    case 'xstate.done.actor.preview':
      expect(s.context.preview).toEqual(composed);
      break;
    case 'xstate.error.actor.preview':
      expected.push(notice('error', SYSTEM_PROMPT_PREVIEW_FAILED));
      break;
    case 'xstate.done.actor.clients':
      expect(s.context.clients).toEqual(clients);
      break;
    case 'xstate.error.actor.clients':
      expected.push(notice('error', CLIENT_CHOICES_FAILED));
      expect(s.context.clients).toEqual([]);
      break;
  }
  expect(out).toEqual(expected);
  prevPage = s;
}

runModelTest({
  name: 'system-prompts',
  machine: systemPromptsMachine,
  testMachine: pageTestMachine,
  onActor: (actor) => {
    page.editorInputs = [];
    page.previews = [];
    page.clientReads = 0;
    page.emitted = [];
    seen = { previews: 0, emitted: 0 };
    prevPage = null;
    actor.on('*', (ev) => page.emitted.push(ev as Notice));
  },
  inputs: [undefined as never],
  events: pageEvents,
  key: (s) => JSON.stringify([s.value, s.context.previewClientId, s.context.preview !== null, s.context.clients?.length ?? null]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.previewClientId]),
  edgeKeys: true,
  checks: { previewing: checkPage, shown: checkPage, failed: checkPage },
});

// The editor: the record editor with the prompts' input.

type Snap = SnapshotFrom<typeof recordEditorMachine>;
type Ev = EventFrom<typeof recordEditorMachine>;
type Told = EventObject & Record<string, unknown>;
const draftOf = (s: Snap) => s.context.draft as SystemPromptDraft | null;
const actOf = (s: Snap) => s.context.target as SystemPromptAct | null;

const prompt: SystemPrompt = {
  id: 'p1',
  name: 'Friendly',
  content: 'Be friendly.',
  client_id: null,
  is_active: false,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};
const activePrompt: SystemPrompt = { ...prompt, id: 'p2', name: 'Acme tone', client_id: 'c1', is_active: true };
const refused = Object.assign(loadFailure('HTTP 400', 'Client not found'), { status: 400 });
const gone = Object.assign(loadFailure('HTTP 404', 'System prompt not found'), { status: 404 });

const fakes = recordEditorFakes();
const { rec } = fakes;
const saves = () => rec.saves as SaveSystemPromptRequest[];
const acts = () => rec.acts as unknown as SystemPromptAct[];
let prev: Snap | null = null;

function editorEvents(s: Snap): Ev[] {
  const always: Ev[] = [promptEvents.retry(), notice('error', SYSTEM_PROMPTS_FETCH_FAILED)];
  if (s.matches('browsing')) {
    return [
      ...always,
      promptEvents.create(),
      promptEvents.edit(activePrompt),
      promptEvents.toggleActive(prompt),
      promptEvents.toggleActive(activePrompt),
      promptEvents.remove(prompt),
      { type: 'act.confirm' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      promptEvents.typeName('  Formal  '),
      promptEvents.typeName(''),
      promptEvents.typeContent('Answer formally.'),
      promptEvents.typeContent('   '),
      promptEvents.pickClient('c1'),
      promptEvents.pickClient(null),
      { type: 'form.submit' },
      { type: 'form.cancel' },
    ];
  }
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.save', output: prompt, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: refused, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
    ] as never[];
  }
  if (s.matches('confirming')) return [...always, { type: 'act.confirm' }, { type: 'act.cancel' }];
  // The delete finds it gone already (another tab); an activation's call fails.
  return [...actOutcomes(prompt, actOf(s)?.kind === 'delete' ? gone : dropped), { type: 'act.cancel' }];
}

const doneWords = { activate: SYSTEM_PROMPT_ACTIVATED, deactivate: SYSTEM_PROMPT_DEACTIVATED, delete: SYSTEM_PROMPT_DELETED };
const failedWords = { activate: SYSTEM_PROMPT_ACTIVATE_FAILED, deactivate: SYSTEM_PROMPT_ACTIVATE_FAILED, delete: SYSTEM_PROMPT_DELETE_FAILED };

function checkEditor(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: { status?: number; serverDetail?: string | null } } & Record<string, unknown>) | null;
  const draft = draftOf(s);

  expect(rec.listInputs).toEqual([{ ...systemPromptsListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('acting'));
  expect(draft !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(actOf(s) !== null).toBe(s.matches('confirming') || s.matches('acting'));
  // Only a delete is asked about first.
  if (s.matches('confirming')) expect(actOf(s)!.kind).toBe('delete');
  if (s.matches('confirming') && event?.type === 'record.act') expect(acts()).toEqual([]);
  if (s.matches('saving') && !p?.matches('saving')) expect(saves().at(-1)).toEqual(saveSystemPromptRequestOf(draft!));
  if (s.matches('acting') && !p?.matches('acting')) expect(acts().at(-1)).toEqual(actOf(s));

  const list: Told[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.retry':
      list.push({ type: 'pager.load' });
      break;
    case 'notice.show':
      out.push(notice('error', SYSTEM_PROMPTS_FETCH_FAILED));
      break;
    case 'record.act':
      if (p!.matches('browsing')) {
        const target = event.target as SystemPromptAct;
        expect(s.matches(target.kind === 'delete' ? 'confirming' : 'acting')).toBe(true);
      }
      break;
    case 'form.submit':
      if (p!.matches('editing')) {
        const errors = systemPromptErrors(draftOf(p!)!);
        expect(s.matches('saving')).toBe(errors === null);
        if (errors) expect(s.context.errors).toEqual(errors);
      }
      break;
    case 'xstate.done.actor.save':
      // Saved: the list is read again (moving an active prompt deactivates it).
      list.push({ type: 'pager.refetch' });
      out.push(notice('success', draftOf(p!)!.promptId ? SYSTEM_PROMPT_UPDATED : SYSTEM_PROMPT_CREATED));
      break;
    case 'xstate.error.actor.save':
      out.push(notice('error', event.error?.serverDetail ?? SYSTEM_PROMPT_SAVE_FAILED));
      expect(draft).toEqual(draftOf(p!));
      break;
    case 'xstate.done.actor.act':
      list.push({ type: 'pager.refetch' });
      out.push(notice('success', doneWords[actOf(p!)!.kind]));
      break;
    case 'xstate.error.actor.act':
      if (event.error?.status === 404) {
        list.push({ type: 'pager.refetch' });
        out.push(notice('success', doneWords[actOf(p!)!.kind]));
      } else out.push(notice('error', failedWords[actOf(p!)!.kind]));
      expect(s.matches('browsing')).toBe(true);
      break;
  }
  fakes.expectStep(list, out);
  prev = s;
}

const draftKey = (s: Snap) => {
  const d = draftOf(s);
  return d ? [d.promptId, d.clientId, systemPromptErrors(d), Object.keys(s.context.errors).sort()] : null;
};

runModelTest({
  name: 'system-prompts editor',
  machine: recordEditorMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    prev = null;
  },
  inputs: [systemPromptsEditorInput],
  events: editorEvents,
  key: (s) => JSON.stringify([s.value, draftKey(s), actOf(s)?.kind ?? null]),
  simpleKey: (s) => JSON.stringify([s.value, draftOf(s)?.promptId ?? null, actOf(s)?.kind ?? null]),
  edgeKeys: true,
  // No search, pages or filter; every save and act reads the list again; only a delete is asked first, and a failed
  // act closes the question: the record editor's own model test takes the rest.
  notTakenByThisInput: {
    transitions: [
      'recordEditor --list.search#0--> (self)',
      'recordEditor --list.goTo#1--> (self)',
      'recordEditor --list.filter#2--> (self)',
      'recordEditor.saving --xstate.done.actor.save#0--> recordEditor.browsing',
      'recordEditor.saving --xstate.done.actor.save#1--> recordEditor.browsing',
      'recordEditor.acting --xstate.done.actor.act#0--> recordEditor.browsing',
      'recordEditor.acting --xstate.done.actor.act#1--> recordEditor.browsing',
      'recordEditor.acting --xstate.error.actor.act#4--> recordEditor.confirming',
    ],
  },
  checks: { browsing: checkEditor, confirming: checkEditor, editing: checkEditor, saving: checkEditor, acting: checkEditor },
});

describe('system prompts (examples)', () => {
  it('words the rules as the server does and sends the fields trimmed', () => {
    const base: SystemPromptDraft = { promptId: null, name: ' ', content: '', clientId: null, active: false };
    expect(systemPromptErrors(base)).toEqual({ name: SYSTEM_PROMPT_NAME_REQUIRED, content: SYSTEM_PROMPT_CONTENT_REQUIRED });
    expect(systemPromptErrors({ ...base, name: 'x'.repeat(101), content: 'y'.repeat(SYSTEM_PROMPT_MAX_CHARS + 1) })).toEqual({
      name: SYSTEM_PROMPT_NAME_TOO_LONG,
      content: SYSTEM_PROMPT_CONTENT_TOO_LONG,
    });
    expect(saveSystemPromptRequestOf({ ...base, name: ' A ', content: ' B ', clientId: 'c1' })).toEqual({
      kind: 'create',
      body: { name: 'A', content: 'B', client_id: 'c1' },
    });
    expect(saveSystemPromptRequestOf({ ...base, promptId: 'p1', name: 'A', content: 'B' })).toEqual({
      kind: 'update',
      promptId: 'p1',
      body: { name: 'A', content: 'B', client_id: null },
    });
  });

  it('activates at once and asks before a delete', () => {
    const actor = createActor(fakes.testMachine(), { input: systemPromptsEditorInput }).start();
    fakes.reset(actor);
    actor.send(promptEvents.toggleActive(prompt));
    expect(actor.getSnapshot().value).toBe('acting');
    expect(acts()).toEqual([{ kind: 'activate', promptId: 'p1', name: 'Friendly' }]);
    actor.send({ type: 'xstate.done.actor.act', output: prompt, actorId: 'act' } as never);
    actor.send(promptEvents.remove(prompt));
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'act.cancel' });
    expect(acts()).toHaveLength(1);
    actor.stop();
  });
});
