import { memo, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Input } from 'react-aria-components/Input';
import { TextField } from 'react-aria-components/TextField';
import { Pencil, Trash2 } from 'lucide-react';
import type { Conversation } from '../../../contract/chat';
import { useForm } from '../../lib/use-form';
import { cx } from '../../ui/cx';

export interface ConversationItemProps {
  conversation: Conversation;
  isActive: boolean;
  onRename(id: string, title: string): void;
  onDelete(conversation: Conversation): void;
}

const action =
  'flex size-7 shrink-0 cursor-pointer items-center justify-center rounded-md text-gray-600 hover:bg-gray-300 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-600 dark:hover:text-white';

/**
 * The inline title editor. Enter saves and so does leaving the field (a click elsewhere: what was typed is not
 * thrown away); Escape cancels. The list machine checks the title (its toast says what is wrong); an unchanged
 * title is not sent. The editor closes once the title has been handed over.
 */
function TitleEditor({ conversation, onRename, onEnd }: { conversation: Conversation; onRename: ConversationItemProps['onRename']; onEnd(keepFocus: boolean): void }) {
  // Set when Enter or Escape ended the edit: the field's blur that follows is no second ending.
  const ended = useRef(false);
  const keepFocus = useRef(false);
  const form = useForm({
    initial: { title: conversation.title },
    submit: async ({ title }) => {
      if (title !== conversation.title) onRename(conversation.id, title);
    },
    fallbackError: '',
    onSucceeded: () => onEnd(keepFocus.current),
  });

  const finish = (save: boolean, focus: boolean) => {
    if (ended.current) return;
    ended.current = true;
    keepFocus.current = focus;
    if (save) form.submit();
    else onEnd(focus);
  };

  return (
    <li className="px-1 py-0.5">
      <TextField aria-label="Conversation title" value={form.values.title} onChange={(title) => form.change({ title })} autoFocus>
        <Input
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              finish(true, true);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              // Only the edit ends: in the phone drawer the Escape would close the drawer as well.
              e.stopPropagation();
              finish(false, true);
            }
          }}
          onBlur={() => finish(true, false)}
          className="w-full rounded-lg border border-primary bg-white px-2 py-1.5 text-sm outline-none dark:bg-gray-800"
        />
      </TextField>
    </li>
  );
}

/**
 * One row of the conversation list: a link, or the inline title editor. After Enter or Escape the focus goes back
 * to the row's Rename button, where the keyboard user started, instead of the page's body.
 */
export const ConversationItem = memo(function ConversationItem({ conversation, isActive, onRename, onDelete }: ConversationItemProps) {
  const [editing, setEditing] = useState(false);
  const [refocus, setRefocus] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (editing || !refocus) return;
    renameButton.current?.focus();
    setRefocus(false);
  }, [editing, refocus]);

  if (editing) {
    return (
      <TitleEditor
        conversation={conversation}
        onRename={onRename}
        onEnd={(keepFocus) => {
          setEditing(false);
          setRefocus(keepFocus);
        }}
      />
    );
  }

  return (
    <li className="group relative">
      <Link
        to={`/chat?id=${encodeURIComponent(conversation.id)}`}
        aria-current={isActive ? 'page' : undefined}
        className={cx(
          'block rounded-lg py-2 pl-3 pr-16 text-sm',
          isActive ? 'bg-gray-300 font-medium text-gray-900 dark:bg-gray-700 dark:text-white' : 'text-gray-800 hover:bg-gray-200 dark:text-gray-200 dark:hover:bg-gray-800',
        )}
      >
        <span className="block truncate">{conversation.title}</span>
        {conversation.matching_snippet && (
          <span className="mt-0.5 block truncate text-xs text-gray-600 dark:text-gray-400">{conversation.matching_snippet}</span>
        )}
      </Link>
      <div className="absolute right-1 top-1.5 flex gap-0.5 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
        <AriaButton
          ref={renameButton}
          aria-label={`Rename ${conversation.title}`}
          className={action}
          onPress={() => setEditing(true)}
        >
          <Pencil aria-hidden className="size-3.5" />
        </AriaButton>
        <AriaButton aria-label={`Delete ${conversation.title}`} className={action} onPress={() => onDelete(conversation)}>
          <Trash2 aria-hidden className="size-3.5" />
        </AriaButton>
      </div>
    </li>
  );
});
