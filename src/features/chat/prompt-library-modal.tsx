import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Check, ClipboardPaste, Copy, Pencil, Plus, Trash2 } from 'lucide-react';
import type { PromptEntry } from '../../../contract/prompt-library';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import type { promptLibraryMachine } from '../../../machines/prompt-library.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Modal } from '../../ui/modal';
import { RetryAlert } from '../../ui/retry-alert';
import { SearchBox } from '../../ui/search-box';
import { Spinner } from '../../ui/spinner';
import { TagFilter } from '../../ui/tag-filter';
import { Tooltip } from '../../ui/tooltip';
import { PromptFormModal } from './prompt-form-modal';

type LibraryRef = ActorRefFrom<typeof promptLibraryMachine>;

export interface PromptLibraryModalProps {
  /** The chat screen's `prompts` child: the modal is open while it runs. */
  library: LibraryRef;
  onClose(): void;
}

const action =
  'flex size-8 cursor-pointer items-center justify-center rounded-md data-[disabled]:cursor-not-allowed data-[disabled]:opacity-40 text-gray-700 hover:bg-gray-200 hover:text-gray-900 dark:text-gray-200 dark:hover:bg-gray-700 dark:hover:text-white';

/**
 * The Prompt Library (spec section 2 modals, section 4 "Prompt library"): a thin view of the prompt library
 * machine. Its Edit Prompt / New Prompt form and the Delete Prompt confirmation open above it.
 */
export default function PromptLibraryModal({ library, onClose }: PromptLibraryModalProps) {
  const listRef = useSelector(library, (s) => s.children.list)!;
  const formRef = useSelector(library, (s) => s.children.form);
  const state = useSelector(
    library,
    (s) => ({
      creating: s.matches('creating'),
      loadingPrompt: s.matches('loadingPrompt'),
      confirmingDelete: s.matches('confirmingDelete'),
      deleting: s.matches('deleting'),
      copiedId: s.hasTag('copied') ? s.context.copiedId : null,
      // While a prompt loads for Edit, or a form or a confirmation is open, the list's actions wait.
      canAct: s.can({ type: 'prompt.new' }),
      deletingId: s.context.deletingId,
    }),
    shallowEqual,
  );
  const view = useSelector(listRef, (s) => pagerView<PromptEntry>(s), samePagerView);
  const tag = useSelector(listRef, (s) => (typeof s.context.filters.tag === 'string' ? s.context.filters.tag : null));
  const filterTag = (name: string | null) => library.send({ type: 'prompts.filterTag', tag: name });
  const searching = view.searchText.trim() !== '';
  const deleting = view.items.find((e) => e.id === state.deletingId);

  return (
    <>
      <Modal isOpen onOpenChange={(open) => !open && onClose()} title="Prompt Library" size="2xl">
        <div className="space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            <SearchBox
              label="Search prompts"
              placeholder="Search prompts..."
              value={view.searchText}
              onChange={(text) => library.send({ type: 'prompts.search', text })}
              className="min-w-48 flex-1"
            />
            <Button variant="primary" isDisabled={!state.canAct} onPress={() => library.send({ type: 'prompt.new' })}>
              <Plus aria-hidden className="size-4" /> New Prompt
            </Button>
          </div>
          {tag && <TagFilter tag={tag} onClear={() => filterTag(null)} />}
          {(view.loading || view.searching) && (
            <div className="flex justify-center py-6">
              <Spinner label="Loading prompts" />
            </div>
          )}
          {view.error && !view.loading && <RetryAlert message={view.error} onRetry={() => library.send({ type: 'prompts.reload' })} />}
          {!view.loading && !view.searching && view.items.length === 0 && !view.error && (
            <p className="py-6 text-center text-sm text-gray-700 dark:text-gray-300">
              {searching || tag ? 'No prompts found' : 'No prompts yet. Save one of your messages, or add a new prompt.'}
            </p>
          )}
          <ul className="space-y-2" aria-label="Saved prompts">
            {view.items.map((entry) => (
              <PromptItem
                key={entry.id}
                entry={entry}
                library={library}
                copied={state.copiedId === entry.id}
                isDisabled={!state.canAct}
                onTag={filterTag}
              />
            ))}
          </ul>
          {view.hasMore && (
            <div className="flex justify-center">
              <Button variant="secondary" isPending={view.loadingMore} onPress={() => library.send({ type: 'prompts.loadMore' })}>
                View More
              </Button>
            </div>
          )}
          {state.loadingPrompt && (
            <p className="flex items-center gap-2 text-sm">
              <Spinner label="Loading prompt" />
              <Button variant="ghost" size="sm" onPress={() => library.send({ type: 'form.cancel' })}>
                Cancel
              </Button>
            </p>
          )}
        </div>
      </Modal>
      {formRef && (
        <PromptFormModal form={formRef} title={state.creating ? 'New Prompt' : 'Edit Prompt'} onCancel={() => library.send({ type: 'form.cancel' })} />
      )}
      <ConfirmDialog
        isOpen={state.confirmingDelete || state.deleting}
        onOpenChange={(open) => !open && library.send({ type: 'delete.cancel' })}
        onConfirm={() => library.send({ type: 'delete.confirm' })}
        isPending={state.deleting}
        title="Delete Prompt"
        message={
          <>
            Are you sure you want to delete this prompt? This cannot be undone.
            {deleting && <q className="mt-2 line-clamp-3 block whitespace-pre-wrap break-words italic">{deleting.prompt}</q>}
          </>
        }
        confirmLabel="Delete"
      />
    </>
  );
}

interface PromptItemProps {
  entry: PromptEntry;
  library: LibraryRef;
  copied: boolean;
  isDisabled: boolean;
  onTag(tag: string): void;
}

function PromptItem({ entry, library, copied, isDisabled, onTag }: PromptItemProps) {
  const label = entry.prompt.length > 60 ? `${entry.prompt.slice(0, 60)}…` : entry.prompt;
  return (
    <li aria-label={label} className="rounded-xl border border-gray-200 p-3 dark:border-gray-700">
      <p className="line-clamp-3 whitespace-pre-wrap break-words text-sm">{entry.prompt}</p>
      <div className="mt-2 flex flex-wrap items-center gap-1">
        {entry.tags.map((name) => (
          <AriaButton
            key={name}
            aria-label={`Prompts tagged ${name}`}
            onPress={() => onTag(name)}
            className="rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-800 hover:bg-gray-200 dark:bg-gray-700 dark:text-gray-100 dark:hover:bg-gray-600"
          >
            {name}
          </AriaButton>
        ))}
        <span className="flex-1" />
        <Tooltip content="Paste to chat">
          <AriaButton aria-label="Paste to chat" isDisabled={isDisabled} className={action} onPress={() => library.send({ type: 'prompt.paste', text: entry.prompt })}>
            <ClipboardPaste aria-hidden className="size-4" />
          </AriaButton>
        </Tooltip>
        <Tooltip content={copied ? 'Copied' : 'Copy'}>
          <AriaButton
            aria-label={copied ? 'Prompt copied' : 'Copy prompt'} isDisabled={isDisabled}
            className={action}
            onPress={() => library.send({ type: 'prompt.copy', id: entry.id, text: entry.prompt })}
          >
            {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
          </AriaButton>
        </Tooltip>
        <Tooltip content="Edit">
          <AriaButton aria-label="Edit prompt" isDisabled={isDisabled} className={action} onPress={() => library.send({ type: 'prompt.edit', id: entry.id })}>
            <Pencil aria-hidden className="size-4" />
          </AriaButton>
        </Tooltip>
        <Tooltip content="Delete">
          <AriaButton aria-label="Delete prompt" isDisabled={isDisabled} className={action} onPress={() => library.send({ type: 'prompt.delete', id: entry.id })}>
            <Trash2 aria-hidden className="size-4" />
          </AriaButton>
        </Tooltip>
      </div>
    </li>
  );
}
