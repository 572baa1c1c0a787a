import { useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Pencil, Plus, Power, PowerOff, Trash2 } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import type { SystemPrompt } from '../../../contract/system-prompts';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import type { RecordEditorMachine } from '../../../machines/record-editor.machine';
import { promptEvents, systemPromptsMachine, type ClientChoice, type SystemPromptAct } from '../../../machines/system-prompts.machine';
import {
  activateSystemPrompt,
  createSystemPrompt,
  deactivateSystemPrompt,
  deleteSystemPrompt,
  fetchClientChoices,
  fetchSystemPrompts,
  previewSystemPrompt,
  updateSystemPrompt,
} from '../../api/system-prompts';
import { formatDateTime } from '../../lib/format-date';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ListError, ListStatus } from '../../ui/list-status';
import { PageTitle } from '../../ui/page-title';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { PromptPreview } from './prompt-preview';
import { scopeLabel } from './scope-choices';
import { SystemPromptDialog } from './system-prompt-dialog';
import { defineSystemPromptsActors } from './system-prompts-actors';

const machine = systemPromptsMachine.provide({
  actors: defineSystemPromptsActors({
    api: {
      fetchSystemPrompts,
      createSystemPrompt,
      updateSystemPrompt,
      deleteSystemPrompt,
      activateSystemPrompt,
      deactivateSystemPrompt,
      previewSystemPrompt,
      fetchClientChoices,
    },
  }),
});

type Editor = ActorRefFrom<RecordEditorMachine>;

/**
 * /system-prompts ('System Prompts', superuser): the prompts, their editor, activation, and a preview of the
 * composed prompt. A thin view of machines/system-prompts.machine.ts: the list, dialog and acts are its `editor`
 * child (the record editor), the preview and the clients its own.
 */
export default function SystemPromptsPage() {
  const page = useActorRef(machine);
  useNoticeToasts(page);
  const editor = useSelector(page, (s) => s.children.editor)! as Editor;
  const clients = useSelector(page, (s) => s.context.clients);
  const previewClientId = useSelector(page, (s) => s.context.previewClientId);
  const listRef = useSelector(editor, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<SystemPrompt>(s), samePagerView);
  const acting = useSelector(editor, (s) => (s.matches('acting') ? (s.context.target as SystemPromptAct | null) : null));

  return (
    <div className="mx-auto max-w-7xl space-y-6 p-4 sm:p-6 md:p-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle description="Instructions every reply follows: one prompt active for everyone, and optionally one per client that replaces it for that client's people.">
          System Prompts
        </PageTitle>
        <Button variant="primary" onPress={() => editor.send(promptEvents.create(previewClientId))}>
          <Plus aria-hidden className="size-4" /> New Prompt
        </Button>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="prompts-title" className="min-w-0 space-y-3">
          <h2 id="prompts-title" className="sr-only">
            Prompts
          </h2>
          <ListError message={list.error} onRetry={() => editor.send(promptEvents.retry())} busy={list.loading} />
          {list.items.length > 0 && (
            <ul aria-label="System prompts" className="space-y-3">
              {list.items.map((prompt) => (
                <PromptItem key={prompt.id} prompt={prompt} clients={clients} editor={editor} busy={acting?.promptId === prompt.id} />
              ))}
            </ul>
          )}
          <ListStatus
            hasItems={list.items.length > 0}
            busy={list.loading}
            loadingLabel="Loading system prompts"
            empty={list.error ? null : 'No system prompts yet. Create one, then activate it.'}
            className="rounded-xl border border-dashed border-gray-300 dark:border-gray-600"
          />
        </section>
        <PromptPreview page={page} prompts={list.items} />
      </div>
      <SystemPromptDialog editor={editor} clients={clients} />
      <DeleteQuestion editor={editor} />
    </div>
  );
}

function PromptItem({ prompt, clients, editor, busy }: { prompt: SystemPrompt; clients: ClientChoice[] | null; editor: Editor; busy: boolean }) {
  const idle = useSelector(editor, (s) => s.matches('browsing'));
  return (
    <li
      className={`space-y-3 rounded-xl border bg-white p-4 dark:bg-gray-900 ${
        prompt.is_active ? 'border-green-600 dark:border-green-500' : 'border-gray-200 dark:border-gray-700'
      }`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 flex-1 truncate font-semibold text-gray-900 dark:text-gray-50">{prompt.name}</h3>
        <span className="rounded-full bg-gray-100 px-2.5 py-0.5 text-xs font-medium text-gray-800 dark:bg-gray-800 dark:text-gray-100">
          {scopeLabel(prompt.client_id, clients)}
        </span>
        {prompt.is_active ? (
          <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-medium text-green-800 dark:bg-green-900 dark:text-green-100">Active</span>
        ) : (
          <span className="rounded-full bg-gray-100 px-2.5 py-0.5 text-xs font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-300">Inactive</span>
        )}
      </div>
      <p className="line-clamp-3 text-sm break-words whitespace-pre-wrap text-gray-700 dark:text-gray-300">{prompt.content}</p>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-gray-600 dark:text-gray-400">Updated {formatDateTime(prompt.updated_at)}</p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" aria-label={`Edit ${prompt.name}`} isDisabled={!idle} onPress={() => editor.send(promptEvents.edit(prompt))}>
            <Pencil aria-hidden className="size-4" /> Edit
          </Button>
          <Button
            size="sm"
            aria-label={`${prompt.is_active ? 'Deactivate' : 'Activate'} ${prompt.name}`}
            isDisabled={!idle && !busy}
            isPending={busy}
            onPress={() => editor.send(promptEvents.toggleActive(prompt))}
          >
            {prompt.is_active ? <PowerOff aria-hidden className="size-4" /> : <Power aria-hidden className="size-4" />}
            {prompt.is_active ? 'Deactivate' : 'Activate'}
          </Button>
          <Button size="sm" aria-label={`Delete ${prompt.name}`} isDisabled={!idle} onPress={() => editor.send(promptEvents.remove(prompt))}>
            <Trash2 aria-hidden className="size-4" /> Delete
          </Button>
        </div>
      </div>
    </li>
  );
}

function DeleteQuestion({ editor }: { editor: Editor }) {
  const state = useSelector(
    editor,
    (s) => {
      const target = s.context.target as SystemPromptAct | null;
      const asking = target?.kind === 'delete';
      return { open: asking && (s.matches('confirming') || s.matches('acting')), deleting: asking && s.matches('acting'), target: asking ? target : null };
    },
    shallowEqual,
  );
  // The dialog keeps its question while it closes (the machine has already let go of the target).
  const last = useRef(state.target);
  if (state.target) last.current = state.target;

  return (
    <ConfirmDialog
      isOpen={state.open}
      onOpenChange={(open) => !open && editor.send({ type: 'act.cancel' })}
      onConfirm={() => editor.send({ type: 'act.confirm' })}
      isPending={state.deleting}
      title="Delete System Prompt"
      message={
        <p>
          Delete the system prompt <strong>{last.current?.name}</strong>? This cannot be undone. If it is active, its people get
          everyone's prompt again (or none, for everyone's).
        </p>
      }
      confirmLabel="Delete"
    />
  );
}
