import { assertEvent, assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { CreateSystemPromptRequest, SystemPrompt, SystemPromptPreview, UpdateSystemPromptRequest } from '../contract/system-prompts';
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
  SYSTEM_PROMPT_NAME_MAX_LENGTH,
  SYSTEM_PROMPT_NAME_REQUIRED,
  SYSTEM_PROMPT_NAME_TOO_LONG,
  SYSTEM_PROMPT_PREVIEW_FAILED,
  SYSTEM_PROMPT_SAVE_FAILED,
  SYSTEM_PROMPT_UPDATED,
  SYSTEM_PROMPTS_FETCH_FAILED,
} from '../contract/system-prompts-constants';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { MAX_PAGE_SIZE, type PagerInput } from './pager.machine';
import {
  deleteRecord,
  recordEditorMachine,
  type ActRecordEvent,
  type ChangeRecordEvent,
  type Draft,
  type EditRecordEvent,
  type FieldErrors,
  type RecordEditorEvent,
  type RecordEditorInput,
} from './record-editor.machine';
import { report } from './report';

/**
 * The superuser's System Prompts page (/system-prompts, issue 30; the spec shows no content): named prompts, one
 * active for everyone and at most one per client, which replaces everyone's for that client's people. One parent
 * (ARCHITECTURE.md "Screens made of machines") with two parts:
 *
 * - `editor` (the shared record editor, invoked for the page's whole life, with `systemPromptsEditorInput` and
 *   `promptEvents`): the list (all prompts in one page), the create/edit dialog (name and text required, within the
 *   server's bounds, and for everyone or one client; the list read again once saved, since moving an active prompt
 *   deactivates it), and the acts: activate and deactivate at once (the list read again: activating one deactivates
 *   the one active in its scope before), delete asked first (one gone already is the same outcome).
 * - the preview: the composed system prompt as a person of the chosen client (or of no client) gets it now, read
 *   from the server (`preview`). `preview.choose` reads it for another client; every change the editor reports done
 *   reads it again (an activation or an edit of the active text changes it); a failed read says so and may be
 *   retried (`preview.retry`).
 *
 * The clients for the selectors are read once (`clients`); without them the prompts still work for everyone.
 * The editor's toasts and the page's own are emitted for the view.
 */

export const systemPromptsListInput: PagerInput = {
  pageSize: MAX_PAGE_SIZE,
  mode: 'replace',
  messages: { load: SYSTEM_PROMPTS_FETCH_FAILED, loadMore: SYSTEM_PROMPTS_FETCH_FAILED },
};

/** What the create/edit dialog holds. */
export interface SystemPromptDraft {
  /** The prompt edited (null: a new one). */
  promptId: string | null;
  name: string;
  content: string;
  /** null: for everyone. */
  clientId: string | null;
  /** The prompt is active now (the dialog says what moving it does). */
  active: boolean;
}

/** What the `save` slot is asked for. */
export type SaveSystemPromptRequest =
  | { kind: 'create'; body: CreateSystemPromptRequest }
  | { kind: 'update'; promptId: string; body: UpdateSystemPromptRequest };

/** What the `act` slot is asked to do to a prompt (`name`: for the question). */
export interface SystemPromptAct {
  kind: 'activate' | 'deactivate' | 'delete';
  promptId: string;
  name: string;
}

/** The dialog's rules, in the server's words. */
export function systemPromptErrors(draft: SystemPromptDraft): FieldErrors | null {
  const errors: FieldErrors = {};
  const name = draft.name.trim();
  const content = draft.content.trim();
  if (name === '') errors.name = SYSTEM_PROMPT_NAME_REQUIRED;
  else if (name.length > SYSTEM_PROMPT_NAME_MAX_LENGTH) errors.name = SYSTEM_PROMPT_NAME_TOO_LONG;
  if (content === '') errors.content = SYSTEM_PROMPT_CONTENT_REQUIRED;
  else if (content.length > SYSTEM_PROMPT_MAX_CHARS) errors.content = SYSTEM_PROMPT_CONTENT_TOO_LONG;
  return Object.keys(errors).length ? errors : null;
}

/** The call a draft makes: name and text trimmed, the client (null: everyone). */
export function saveSystemPromptRequestOf(draft: SystemPromptDraft): SaveSystemPromptRequest {
  const body = { name: draft.name.trim(), content: draft.content.trim(), client_id: draft.clientId };
  return draft.promptId ? { kind: 'update', promptId: draft.promptId, body } : { kind: 'create', body };
}

const asPrompt = (draft: Draft) => draft as unknown as SystemPromptDraft;

export const systemPromptsEditorInput: RecordEditorInput = {
  list: systemPromptsListInput,
  rules: {
    errors: (draft) => systemPromptErrors(asPrompt(draft)),
    request: (draft) => saveSystemPromptRequestOf(asPrompt(draft)),
  },
  act: { goneIsDone: true },
};

type ListEvent<T extends RecordEditorEvent['type']> = Extract<RecordEditorEvent, { type: T }>;
const change = (patch: Partial<SystemPromptDraft>): ChangeRecordEvent => ({ type: 'record.change', patch: patch as Draft });
const savePlan = { failed: SYSTEM_PROMPT_SAVE_FAILED, then: 'refetch' as const };

/** The editor's events (sent to the `editor` child), with the words of each change. */
export const promptEvents = {
  retry: (): ListEvent<'list.retry'> => ({ type: 'list.retry' }),
  /** 'New Prompt': an empty one, for everyone or for the client whose preview is shown. */
  create: (clientId: string | null = null): EditRecordEvent => {
    const draft: SystemPromptDraft = { promptId: null, name: '', content: '', clientId, active: false };
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: SYSTEM_PROMPT_CREATED, ...savePlan } };
  },
  edit: (prompt: Pick<SystemPrompt, 'id' | 'name' | 'content' | 'client_id' | 'is_active'>): EditRecordEvent => {
    const draft: SystemPromptDraft = { promptId: prompt.id, name: prompt.name, content: prompt.content, clientId: prompt.client_id, active: prompt.is_active };
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: SYSTEM_PROMPT_UPDATED, ...savePlan } };
  },
  typeName: (name: string) => change({ name }),
  typeContent: (content: string) => change({ content }),
  pickClient: (clientId: string | null) => change({ clientId }),
  /** Activate or deactivate at once: the list is read again (the one active before in its scope is no longer). */
  toggleActive: (prompt: Pick<SystemPrompt, 'id' | 'name' | 'is_active'>): ActRecordEvent => ({
    type: 'record.act',
    target: { kind: prompt.is_active ? 'deactivate' : 'activate', promptId: prompt.id, name: prompt.name } satisfies SystemPromptAct,
    plan: prompt.is_active
      ? { done: SYSTEM_PROMPT_DEACTIVATED, failed: SYSTEM_PROMPT_ACTIVATE_FAILED, then: 'refetch' }
      : { done: SYSTEM_PROMPT_ACTIVATED, failed: SYSTEM_PROMPT_ACTIVATE_FAILED, then: 'refetch' },
    confirm: false,
  }),
  remove: (prompt: Pick<SystemPrompt, 'id' | 'name'>): ActRecordEvent =>
    deleteRecord({ kind: 'delete', promptId: prompt.id, name: prompt.name } satisfies SystemPromptAct, {
      deleted: SYSTEM_PROMPT_DELETED,
      failed: SYSTEM_PROMPT_DELETE_FAILED,
    }),
};

/** A client as the selectors offer it. */
export interface ClientChoice {
  id: string;
  name: string;
}

export interface SystemPromptsContext {
  /** Whose composed prompt the preview shows (null: a person of no client). */
  previewClientId: string | null;
  preview: SystemPromptPreview | null;
  /** The clients for the selectors (null until read; [] when they could not be). */
  clients: ClientChoice[] | null;
}

export type SystemPromptsEvent =
  | { type: 'preview.choose'; clientId: string | null }
  | { type: 'preview.retry' }
  /** From the editor: its toasts (a done one may change the composed prompt). */
  | Notice
  | DoneActorEvent<SystemPromptPreview, 'preview'>
  | ErrorActorEvent<unknown, 'preview'>
  | DoneActorEvent<ClientChoice[], 'clients'>
  | ErrorActorEvent<unknown, 'clients'>;

export const CLIENT_CHOICES_FAILED = 'Failed to fetch clients';

const previewSetup = setup({
  types: {
    context: {} as SystemPromptsContext,
    events: {} as SystemPromptsEvent,
    emitted: {} as Notice,
    tags: {} as 'previewing',
    children: {} as { editor: 'editor'; preview: 'preview'; clients: 'clients' },
  },
  actors: {
    editor: recordEditorMachine,
    preview: notProvided<SystemPromptPreview, { clientId: string | null }>('preview'),
    clients: notProvided<ClientChoice[], void>('clients'),
  },
  guards: {
    changeDone: ({ event }) => event.type === 'notice.show' && event.tone === 'success',
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportPreviewFailed: report(() => notice('error', SYSTEM_PROMPT_PREVIEW_FAILED)),
    reportClientsFailed: report(() => notice('error', CLIENT_CHOICES_FAILED)),
    choosePreview: assign(({ event }) => {
      assertEvent(event, 'preview.choose');
      return { previewClientId: event.clientId, preview: null };
    }),
  },
});

/** What reads the preview again, in every state (re-entering `previewing` restarts a read in flight). */
const readAgain = {
  'notice.show': { guard: 'changeDone', target: 'previewing', reenter: true, actions: 'passNotice' },
  'preview.choose': {
    target: 'previewing',
    reenter: true,
    actions: 'choosePreview',
  },
} as const;

export const systemPromptsMachine = previewSetup.createMachine({
  id: 'systemPrompts',
  context: { previewClientId: null, preview: null, clients: null },
  invoke: [
    { id: 'editor', src: 'editor', input: ({ self }) => ({ ...systemPromptsEditorInput, parent: self }) },
    {
      id: 'clients',
      src: 'clients',
      onDone: { actions: assign({ clients: ({ event }) => event.output }) },
      onError: { actions: [assign({ clients: [] }), 'reportClientsFailed'] },
    },
  ],
  initial: 'previewing',
  on: {
    'notice.show': { actions: 'passNotice' },
  },
  states: {
    previewing: {
      description: "Reads the composed prompt of the chosen client's people (the one shown stays until the new one comes).",
      tags: ['previewing'],
      on: readAgain,
      invoke: {
        id: 'preview',
        src: 'preview',
        input: ({ context }) => ({ clientId: context.previewClientId }),
        onDone: { target: 'shown', actions: assign({ preview: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'reportPreviewFailed' },
      },
    },
    shown: { description: 'The composed prompt is shown.', on: readAgain },
    failed: {
      description: 'The preview could not be read; it may be tried again.',
      on: { ...readAgain, 'preview.retry': 'previewing' },
    },
  },
});

export type SystemPromptsMachine = typeof systemPromptsMachine;
