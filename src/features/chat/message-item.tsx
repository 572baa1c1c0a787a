import { memo, useState } from 'react';
import { useForm } from '../../lib/use-form';
import { Button as AriaButton } from 'react-aria-components/Button';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { BookmarkPlus, Copy, Pencil, RotateCcw } from 'lucide-react';
import { type ChatMessage } from '../../../contract/chat';
import type { StreamActivity } from '../../../contract/chat-stream';
import { FAIR_USE_EXCEEDED, MESSAGE_EMPTY } from '../../../contract/chat-constants';
import { copyMessage } from '../../ui/markdown/copy-message';
import { AssistantMarkdown } from '../../ui/markdown/assistant-markdown';
import { UserMessageText } from '../../ui/markdown/user-message-text';
import { Button } from '../../ui/button';
import { toast } from '../../ui/toast';
import { Tooltip } from '../../ui/tooltip';
import { ThinkingIndicator } from './thinking-indicator';
import { ReplyRating } from './reply-rating';
import { MessageTime } from './message-time';
import { MessageFiles } from './message-files';
import { MessageError } from '../../ui/markdown/message-error';
import { CONNECTION_FAILED_TITLE, FAIR_USE_REFUSED_TITLE, SEND_REQUEST_FAILED, SEND_STREAM_FAILED } from '../../../machines/chat-send.machine';

/** The chat-send machine's sentences for a reply lost to the network (no error marker in them). */
const isNetworkFailure = (message: ChatMessage, content: string) =>
  message.status === 'error' && (content === SEND_REQUEST_FAILED || content === SEND_STREAM_FAILED);

export interface MessageItemProps {
  message: ChatMessage;
  /** The live text of the reply being streamed into this message, when it is that one. */
  liveText?: string;
  isThinking?: boolean;
  /** What the server is doing before the text (said instead of 'Thinking'); null once text comes (the machine clears it). */
  activity?: StreamActivity | null;
  /** A send is under way, or a reply is followed: editing waits until it ends. */
  isBusy: boolean;
  /** This is the reply the page shows as being written (the chat-send machine's replyBeingWrittenId). */
  isWriting?: boolean;
  onEdit(messageId: string, text: string): void;
  /** Saves the text of one of the person's own messages to their prompt library. */
  onSavePrompt(text: string): void;
  /** Given for the last reply when it can be asked for again (the chat-send machine's `can`). */
  onRegenerate?: () => void;
}

const action =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-600 hover:bg-gray-200 hover:text-gray-900 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-40 dark:text-gray-300 dark:hover:bg-gray-700 dark:hover:text-white';

async function copy(content: string, asMarkdown: boolean) {
  try {
    const how = asMarkdown ? await copyMessage(content) : (await navigator.clipboard.writeText(content), 'plain' as const);
    toast.success(how === 'rich' ? 'Message copied with formatting for Word' : 'Message copied as plain text');
  } catch {
    toast.error('Failed to copy message');
  }
}

/** An edit of the person's message: the text may not be blank (the send machine's rule, said before sending). */
const editErrors = ({ text }: { text: string }) => (text.trim() ? {} : { text: MESSAGE_EMPTY });

function EditBox({ initial, onClose, onSave }: { initial: string; onClose(): void; onSave(text: string): void }) {
  // Saving hands the edit to the chat (its machine sends it); the box closes once it has been handed over.
  const form = useForm({
    initial: { text: initial },
    validate: editErrors,
    submit: async ({ text }) => onSave(text),
    fallbackError: '',
    onSucceeded: onClose,
  });
  const error = form.fieldErrors.text;
  const save = form.submit;
  return (
    <div className="w-full max-w-2xl rounded-2xl border border-gray-300 bg-white p-3 dark:border-gray-600 dark:bg-gray-800">
      <TextField aria-label="Edit message" value={form.values.text} onChange={(text) => form.change({ text })} autoFocus isInvalid={!!error}>
        <TextArea
          rows={3}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose();
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              save();
            }
          }}
          className="block max-h-64 w-full resize-y bg-transparent text-base outline-none"
        />
      </TextField>
      {error && <p role="alert" className="text-sm text-red-600 dark:text-red-400">{error}</p>}
      <div className="mt-2 flex justify-end gap-2">
        <Button size="sm" variant="secondary" onPress={onClose}>Cancel</Button>
        <Button size="sm" variant="primary" onPress={save}>Save &amp; Send</Button>
      </div>
    </div>
  );
}

/** One message: the person's own (escaped plain text, edit/copy/save) or the assistant's (markdown, copy). */
export const MessageItem = memo(function MessageItem({ message, liveText, isThinking, activity, isBusy, isWriting = false, onEdit, onSavePrompt, onRegenerate }: MessageItemProps) {
  const [editing, setEditing] = useState(false);
  const mine = message.sender === 'user';
  const content = liveText ?? message.content;
  // Not every reply at status 'streaming': one whose following failed, or was given up, is shown as last read (the
  // chat says the connection was lost and offers Refresh message under it).
  const streaming = isWriting;

  if (mine) {
    return (
      <article aria-label="Your message" className="group flex flex-col items-end gap-1 py-3">
        {editing ? (
          <EditBox
            initial={message.content}
            onClose={() => setEditing(false)}
            onSave={(text) => onEdit(message.id, text)}
          />
        ) : (
          <div className="max-w-[85%] rounded-2xl bg-white px-4 py-2.5 shadow-xs dark:bg-gray-700">
            <UserMessageText text={message.content} />
          </div>
        )}
        {message.documents?.length ? <MessageFiles documents={message.documents} /> : null}
        {!editing && (
          <div className="flex gap-0.5 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
            <Tooltip content="Edit">
              <AriaButton aria-label="Edit message" isDisabled={isBusy} className={action} onPress={() => setEditing(true)}>
                <Pencil aria-hidden className="size-4" />
              </AriaButton>
            </Tooltip>
            <Tooltip content="Copy">
              <AriaButton aria-label="Copy message" className={action} onPress={() => void copy(message.content, false)}>
                <Copy aria-hidden className="size-4" />
              </AriaButton>
            </Tooltip>
            <Tooltip content="Save to prompt library">
              <AriaButton aria-label="Save to prompt library" className={action} onPress={() => onSavePrompt(message.content)}>
                <BookmarkPlus aria-hidden className="size-4" />
              </AriaButton>
            </Tooltip>
            <MessageTime createdAt={message.created_at} />
          </div>
        )}
      </article>
    );
  }

  return (
    <article aria-label="Assistant message" aria-busy={streaming || undefined} className="group py-3">
      {/* Nothing written yet: this page's own send, or a reply another page started that this one follows. */}
      {(isThinking || streaming) && !content ? (
        <ThinkingIndicator activity={activity} />
      ) : isNetworkFailure(message, content) ? (
        // Model and network failures look alike: what happened, in the reply, with the way on under it.
        <MessageError title={CONNECTION_FAILED_TITLE}>
          <p>{content}</p>
        </MessageError>
      ) : message.status === 'error' && content === FAIR_USE_EXCEEDED ? (
        <MessageError title={FAIR_USE_REFUSED_TITLE}>
          <p>{content}</p>
        </MessageError>
      ) : (
        <AssistantMarkdown content={content} streaming={streaming} />
      )}
      {!streaming && message.stopped && <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">Stopped</p>}
      {!streaming && content && (
        <div className="mt-1 flex gap-0.5 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
          <Tooltip content="Copy">
            <AriaButton aria-label="Copy message" className={action} onPress={() => void copy(content, true)}>
              <Copy aria-hidden className="size-4" />
            </AriaButton>
          </Tooltip>
          {onRegenerate && (
            <Tooltip content="Regenerate">
              <AriaButton aria-label="Regenerate reply" className={action} onPress={onRegenerate}>
                <RotateCcw aria-hidden className="size-4" />
              </AriaButton>
            </Tooltip>
          )}
          <ReplyRating key={message.id} messageId={message.id} rating={message.rating ?? null} />
          <MessageTime createdAt={message.created_at} />
        </div>
      )}
    </article>
  );
});
