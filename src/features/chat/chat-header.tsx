import { lazy, Suspense, useState } from 'react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { useSearchParams } from 'react-router-dom';
import { FileDown, FileText, History, Lightbulb, Menu, PanelLeftOpen, Share2, SquarePen } from 'lucide-react';
import { documentsLabel } from '../../../machines/conversation-documents.machine';
import { exportConversationMarkdown } from '../../lib/conversation-export';
import { cx } from '../../ui/cx';
import { Tooltip } from '../../ui/tooltip';

export interface ChatHeaderProps {
  title: string | null;
  isUserRole: boolean;
  /** Desktop: the conversation panel is folded away. */
  panelCollapsed: boolean;
  onExpandPanel(): void;
  onOpenDrawer(): void;
  onNewChat(): void;
  onShare(): void;
  /** The open conversation's documents ('N Document(s)'); on a new chat, the files attached for its first message. */
  documentsCount: number;
  onOpenDocuments(): void;
  /** False when the open id names no conversation of this person: nothing to share, list or export then. */
  hasConversationActions: boolean;
}

const iconButton =
  'flex h-9 min-w-9 cursor-pointer items-center justify-center gap-1.5 rounded-lg px-2 text-sm text-gray-700 hover:bg-gray-200 dark:text-gray-200 dark:hover:bg-gray-700';

// Its code loads when first opened: the chat route stays light.
const TipsModal = lazy(() => import('./tips-modal'));

export function ChatHeader({
  title,
  isUserRole,
  panelCollapsed,
  onExpandPanel,
  onOpenDrawer,
  onNewChat,
  onShare,
  documentsCount,
  onOpenDocuments,
  hasConversationActions,
}: ChatHeaderProps) {
  const documentsText = documentsLabel(documentsCount);
  // Which modal is open is this view's own: the tips list is a self-contained pager, nothing else reads it.
  const [tipsOpen, setTipsOpen] = useState(false);
  // The open conversation, as the page reads it (?id=); a new chat has nothing to export yet.
  const conversationId = useSearchParams()[0].get('id');
  return (
    <header className="flex h-14 shrink-0 items-center gap-1 border-b border-gray-300 px-2 dark:border-gray-700">
      {isUserRole && (
        <AriaButton aria-label="Open menu" onPress={onOpenDrawer} className={cx(iconButton, 'md:hidden')}>
          <Menu aria-hidden className="size-5" />
        </AriaButton>
      )}
      {panelCollapsed && (
        <Tooltip content="Show conversations">
          <AriaButton aria-label="Show conversations" onPress={onExpandPanel} className={cx(iconButton, 'hidden md:flex')}>
            <PanelLeftOpen aria-hidden className="size-5" />
          </AriaButton>
        </Tooltip>
      )}
      <h1 className="min-w-0 flex-1 truncate px-2 text-base font-semibold">{title ?? 'New chat'}</h1>
      {hasConversationActions && (
        <>
          <Tooltip content="Share conversation">
            <AriaButton aria-label="Share" onPress={onShare} className={iconButton}>
              <Share2 aria-hidden className="size-4" />
              <span className="hidden sm:inline">Share</span>
            </AriaButton>
          </Tooltip>
          <Tooltip content="Attached documents">
            <AriaButton aria-label={documentsText} onPress={onOpenDocuments} className={iconButton}>
              <FileText aria-hidden className="size-4" />
              <span className="hidden sm:inline">{documentsText}</span>
            </AriaButton>
          </Tooltip>
          {conversationId && (
            <Tooltip content="Export as Markdown">
              <AriaButton aria-label="Export as Markdown" onPress={() => void exportConversationMarkdown(conversationId)} className={iconButton}>
                <FileDown aria-hidden className="size-4" />
              </AriaButton>
            </Tooltip>
          )}
        </>
      )}
      <Tooltip content="New chat">
        <AriaButton aria-label="New chat" onPress={onNewChat} className={cx(iconButton, 'md:hidden')}>
          <SquarePen aria-hidden className="size-5" />
        </AriaButton>
      </Tooltip>
      {!isUserRole && (
        <Tooltip content="Conversations">
          <AriaButton aria-label="Conversation history" onPress={onOpenDrawer} className={cx(iconButton, 'md:hidden')}>
            <History aria-hidden className="size-5" />
          </AriaButton>
        </Tooltip>
      )}
      <Tooltip content="Tips">
        <AriaButton aria-label="Tips" onPress={() => setTipsOpen(true)} className={iconButton}>
          <Lightbulb aria-hidden className="size-4" />
        </AriaButton>
      </Tooltip>
      {tipsOpen && (
        <Suspense fallback={null}>
          <TipsModal isOpen onClose={() => setTipsOpen(false)} />
        </Suspense>
      )}
    </header>
  );
}
