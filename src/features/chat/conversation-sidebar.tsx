import type { ReactNode } from 'react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { PanelLeftClose, SquarePen } from 'lucide-react';
import { type Conversation } from '../../../contract/chat';
import { SEARCH_TOO_SHORT } from '../../../contract/chat-constants';
import { groupConversations } from '../../lib/conversation-groups';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { SearchBox } from '../../ui/search-box';
import { Spinner } from '../../ui/spinner';
import { ConversationItem } from './conversation-item';

export interface ConversationListView {
  conversations: Conversation[];
  searchResults: Conversation[];
  searchText: string;
  /** Something is typed in the search box: show the search instead of the list. */
  inSearch: boolean;
  /** Too short to search: show the hint. */
  searchHint: boolean;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  searching: boolean;
  searchHasMore: boolean;
  deletingId: string | null;
  /** The conversation the 'Delete Conversation' dialog asks about (the list machine's). */
  confirmingDelete: { id: string; title: string } | null;
}

export interface ConversationPanelProps {
  view: ConversationListView;
  activeId: string | null;
  onNewChat(): void;
  onSearchChange(text: string): void;
  onLoadMore(): void;
  onSearchLoadMore(): void;
  onRename(id: string, title: string): void;
  /** A row's Delete: opens the 'Delete Conversation' dialog (DeleteConversationDialog, drawn once for both panels). */
  onAskDelete(conversation: Conversation): void;
  /** Bottom of the panel: the profile button and Logout for the user role. */
  footer?: ReactNode;
  /** Desktop only: folds the panel away. */
  onCollapse?(): void;
}

function List({ items, activeId, onRename, onAskDelete }: { items: Conversation[]; activeId: string | null; onRename: ConversationPanelProps['onRename']; onAskDelete(c: Conversation): void }) {
  return (
    <ul className="space-y-0.5">
      {items.map((c) => (
        <ConversationItem key={c.id} conversation={c} isActive={c.id === activeId} onRename={onRename} onDelete={onAskDelete} />
      ))}
    </ul>
  );
}

/** New Chat, search and the grouped conversation list (spec section 2 and 4, Conversation list). */
export function ConversationPanel(props: ConversationPanelProps) {
  const { view, activeId, onNewChat, onSearchChange, onLoadMore, onSearchLoadMore, onRename, onAskDelete, footer, onCollapse } = props;
  const { inSearch, searchHint: hint } = view;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex items-center gap-2 p-3">
        <Button variant="secondary" className="flex-1 justify-start" onPress={onNewChat}>
          <SquarePen aria-hidden className="size-4" /> New Chat
        </Button>
        {onCollapse && (
          <AriaButton aria-label="Hide conversations" onPress={onCollapse} className="hidden rounded-lg p-2 hover:bg-gray-200 md:block dark:hover:bg-gray-800">
            <PanelLeftClose aria-hidden className="size-5" />
          </AriaButton>
        )}
      </div>
      <div className="px-3 pb-2">
        <SearchBox label="Search conversations" placeholder="Search conversations..." value={view.searchText} onChange={onSearchChange} size="sm" />
        {hint && <p className="mt-1.5 text-xs text-gray-600 dark:text-gray-400">{SEARCH_TOO_SHORT}</p>}
      </div>
      <nav aria-label="Conversations" className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {inSearch && !hint ? (
          <>
            {view.searching && view.searchResults.length === 0 ? (
              <div className="flex justify-center p-4"><Spinner label="Searching" /></div>
            ) : view.searchResults.length === 0 ? (
              <p className="p-3 text-sm text-gray-600 dark:text-gray-400">No conversations found</p>
            ) : (
              <List items={view.searchResults} activeId={activeId} onRename={onRename} onAskDelete={onAskDelete} />
            )}
            {view.searchHasMore && (
              <Button variant="ghost" size="sm" className="mt-2 w-full" isPending={view.searching} onPress={onSearchLoadMore}>
                Load more
              </Button>
            )}
          </>
        ) : hint ? null : view.loading && view.conversations.length === 0 ? (
          <div className="flex justify-center p-4"><Spinner label="Loading conversations" /></div>
        ) : view.conversations.length === 0 ? (
          <p className="p-3 text-sm text-gray-600 dark:text-gray-400">No conversations yet</p>
        ) : (
          <>
            {groupConversations(view.conversations).map(({ group, items }) => (
              <section key={group} aria-label={group} className="mb-3">
                <h3 className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400">{group}</h3>
                <List items={items} activeId={activeId} onRename={onRename} onAskDelete={onAskDelete} />
              </section>
            ))}
            {view.hasMore && (
              <Button variant="ghost" size="sm" className="w-full" isPending={view.loadingMore} onPress={onLoadMore}>
                Load more
              </Button>
            )}
          </>
        )}
      </nav>
      {footer && <div className="border-t border-gray-300 p-3 dark:border-gray-700">{footer}</div>}
    </div>
  );
}

/**
 * The 'Delete Conversation' confirmation of the conversation the list machine asks about: open from a row's
 * Delete until cancelled or deleted (a failed delete leaves it open for another try); pending while it runs.
 */
export function DeleteConversationDialog({ view, onCancel, onDelete }: { view: ConversationListView; onCancel(): void; onDelete(id: string): void }) {
  const toDelete = view.confirmingDelete;
  return (
    <ConfirmDialog
      isOpen={toDelete !== null}
      onOpenChange={(open) => !open && onCancel()}
      title="Delete Conversation"
      message={toDelete ? `Delete "${toDelete.title}"? This cannot be undone.` : undefined}
      confirmLabel="Delete"
      isPending={toDelete !== null && view.deletingId === toDelete.id}
      onConfirm={() => toDelete && onDelete(toDelete.id)}
    />
  );
}
