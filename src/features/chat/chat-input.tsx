import { useEffect, useLayoutEffect, useRef, type FormEvent, type KeyboardEvent } from 'react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { ArrowUp, BookOpen, Paperclip, Square } from 'lucide-react';
import { MESSAGE_EMPTY, MESSAGE_MAX_LENGTH } from '../../../contract/chat-constants';
import type { DocumentView } from '../../../contract/documents';
import { ACCEPT_ATTRIBUTE, type UploadStage } from '../../../contract/documents-constants';
import type { ChatOptions, OptionFeature } from '../../../machines/chat-screen.machine';
import { cx } from '../../ui/cx';
import { SKIP_TARGET_ATTRIBUTE } from '../../lib/skip-target';
import { useForm } from '../../lib/use-form';
import { Tooltip } from '../../ui/tooltip';
import { AttachmentList } from './attachment-list';
import { FeatureControls, type FeatureControlsProps } from './feature-controls';
import { UploadOverlay } from './upload-overlay';
import { useAttachmentDrop } from './use-attachment-drop';

/** The input box's attachments, from the upload machine (a child of the chat screen). */
export interface ChatAttachments {
  /** Ready files listed for the next message. */
  files: DocumentView[];
  deletingId: string | null;
  /** A delete is taken now (none running). */
  canDelete: boolean;
  /** The stage the overlay shows while files attach, else null. */
  stage: UploadStage | null;
  onAdd(files: File[]): void;
  onDelete(id: string): void;
}

export interface ChatInputProps {
  isNewChat: boolean;
  /** A send is under way (thinking, streaming, loading): Send is disabled. */
  isSubmitting: boolean;
  /** The screen refuses a send while files attach (its `message.submit` guard): Send is disabled (spec section 4, rule 7). */
  isAttaching?: boolean;
  /** The attached files, the picker, drop and paste; without it the box takes no files (nothing to attach to). */
  attachments?: ChatAttachments;
  /** What the next send carries. */
  options: ChatOptions;
  /** What the person's package includes (the screen machine's `can`): image generation gets the features menu. */
  allowed: { browsing: boolean; imageGeneration: boolean; reasoning: boolean };
  /** What the server's tools can do (browsing set up, demo images); null until known. */
  tools?: FeatureControlsProps['tools'];
  onToggleOption(feature: OptionFeature): void;
  onToggleReasoning(): void;
  /** Returns whether the message was taken (the box empties only then). */
  onSubmit(text: string): boolean;
  /** While a reply is written, Stop takes the place of Send (enabled when the machine can stop it now). */
  stop?: { canStop: boolean; onStop(): void };
  onOpenPrompts(): void;
  /** Text put into the box from outside (a prompt pasted from the library); `at` tells two pastes of one text apart. */
  fill?: { text: string; at: number } | null;
  /** Whether the box could take the filled text (inserted at the cursor), or it would make the message too long. */
  onFilled?(ok: boolean): void;
  /** Whether the machines take this text now (their guards, read through `can()`): Send is enabled only then. */
  canSend?(text: string): boolean;
  /** The box takes the focus when it appears and whenever this changes (New Chat). */
  focusRequest?: number;
}

const iconButton = cx(
  'flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-gray-700 transition-colors hover:bg-gray-100',
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 dark:text-gray-200 dark:hover:bg-gray-700',
  'data-[selected]:bg-primary/30 data-[selected]:text-gray-900 dark:data-[selected]:text-gray-50',

);

/** The browser sizes a text area to its content (CSS `field-sizing: content`: Chromium 123+); else the box measures it. */
const SIZES_ITSELF = typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');

const roundButton = cx(
  'flex size-9 cursor-pointer items-center justify-center rounded-full bg-gray-900 text-white transition-colors hover:bg-gray-700',
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-40 dark:bg-gray-100 dark:text-gray-900 dark:hover:bg-white',
);

/** Said under the box when Send is pressed with nothing typed (spec section 4). */
const draftErrors = ({ text }: { text: string }) => (text.trim() ? {} : { text: MESSAGE_EMPTY });

/** The screen did not take the message (its guards): what was typed stays, and nothing is said. */
const NOT_TAKEN = 'not taken';

/** The file picker, limited to the accepted types (spec section 5); files chosen while a batch attaches queue after it. */
function AttachButton({ isDisabled, onFiles }: { isDisabled: boolean; onFiles(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Tooltip content="Attach files">
        <AriaButton aria-label="Attach files" isDisabled={isDisabled} onPress={() => input.current?.click()} className={iconButton}>
          <Paperclip aria-hidden className="size-4" />
        </AriaButton>
      </Tooltip>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="attach-files-input"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          // Cleared, so choosing the same file again after deleting it is a change too.
          e.currentTarget.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </>
  );
}

/** The message box of the new-chat screen and of a conversation (spec section 2, Chat input box). */
export function ChatInput(props: ChatInputProps) {
  const { isNewChat, isSubmitting, isAttaching = false, attachments, options, allowed, onToggleOption, onToggleReasoning, onSubmit, stop, onOpenPrompts, fill, onFilled, canSend, focusRequest } = props;
  const ref = useRef<HTMLTextAreaElement>(null);
  // The draft: what is typed, its check, and the hand-over to the screen, which empties the box once taken.
  const draft = useForm({
    initial: { text: '' },
    validate: draftErrors,
    submit: async ({ text }) => {
      if (!onSubmit(text)) throw new Error(NOT_TAKEN);
    },
    fallbackError: NOT_TAKEN,
    onSucceeded: () => {
      draft.reset({ text: '' });
      // Sent with the Send button, the focus would go with the button (Stop takes its place): back to the box.
      ref.current?.focus();
    },
  });
  const { text } = draft.values;
  const error = draft.fieldErrors.text ?? null;
  const sendDisabled = isSubmitting || isAttaching;
  // Blank text is refused by the send machine's guard: Send says so before it is pressed.
  const sendEnabled = !sendDisabled && (canSend ? canSend(text) : text.trim() !== '');
  // Files added while others upload are queued by the upload machine for the next batch, so adding stays open.
  const canAttach = attachments !== undefined;
  const { dragging, dropProps, onPaste } = useAttachmentDrop({ enabled: canAttach, onFiles: (files) => attachments?.onAdd(files) });

  // Where the person types: on arrival (a page load, a new chat, the conversation a first send created) and on
  // New Chat. Without it a send or New Chat left the focus on the page's body, many Tabs away from the box.
  useEffect(() => {
    ref.current?.focus();
  }, [focusRequest]);

  // A pasted prompt goes in at the cursor (replacing a selection), keeping what was typed around it; the cursor
  // waits after it. The box keeps its selection while the library is open, so the cursor is where it was left.
  useEffect(() => {
    if (!fill) return;
    const el = ref.current;
    if (!el) {
      onFilled?.(false);
      return;
    }
    const { value, selectionStart, selectionEnd } = el;
    const next = value.slice(0, selectionStart) + fill.text + value.slice(selectionEnd);
    // Past the length a message may have the send would be refused: what was typed is kept as it was.
    if (next.length > MESSAGE_MAX_LENGTH) {
      onFilled?.(false);
      el.focus();
      return;
    }
    draft.change({ text: next });
    onFilled?.(true);
    const caret = selectionStart + fill.text.length;
    el.focus();
    requestAnimationFrame(() => el.setSelectionRange(caret, caret));
    // Only a new fill pastes: the callback changing is no paste.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fill]);

  // Grows with the content between the CSS min and max heights (50 px up to 120/130/200/300 px): by itself where
  // the browser sizes text areas to their content (CSS field-sizing), else measured here.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || SIZES_ITSELF) return;
    // Empty, it has its CSS height. Measuring would force a layout of the whole page in the middle of the chat's
    // first commit, laid out again once the messages are placed (4 to 12 ms of opening a conversation, A/B runs here).
    if (!text) {
      el.style.height = '';
      return;
    }
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [text]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (sendDisabled) return;
    draft.submit();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter is a newline; Enter that confirms an IME composition is neither.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <form onSubmit={submit} className="w-full">
      <div
        {...(attachments ? dropProps : {})}
        data-dragging={dragging || undefined}
        className={cx(
          'rounded-2xl border bg-white p-2 shadow-sm dark:bg-gray-800',
          error ? 'border-red-500' : 'border-gray-300 dark:border-gray-600',
          // Spec: a dragging state (dashed border) while files are dragged over the box.
          dragging && 'border-2 border-dashed border-gray-500 dark:border-gray-300',
          'focus-within:ring-2 focus-within:ring-primary',
        )}
      >
        {attachments && (
          <AttachmentList files={attachments.files} deletingId={attachments.deletingId} canDelete={attachments.canDelete} onDelete={attachments.onDelete} />
        )}
        <div className="relative">
          <TextField
            aria-label="Message"
            value={text}
            onChange={(v) => draft.change({ text: v })}
            isInvalid={!!error}
            validationBehavior="aria"
          >
            <TextArea
              ref={ref}
              {...{ [SKIP_TARGET_ATTRIBUTE]: '' }}
              placeholder="Ask Anything"
              rows={1}
              onKeyDown={onKeyDown}
              onPaste={attachments ? onPaste : undefined}
              aria-describedby={error ? 'chat-input-error' : undefined}
              className={cx(
                'block max-h-[120px] min-h-[50px] w-full resize-none bg-transparent px-2 py-3 text-base outline-none [field-sizing:content] placeholder:text-gray-500 dark:placeholder:text-gray-400',
                isNewChat && 'max-h-[130px] lg:max-h-[200px] 2xl:max-h-[300px]',
              )}
            />
          </TextField>
          {attachments?.stage && <UploadOverlay stage={attachments.stage} />}
        </div>
        <div className="flex items-center gap-1">
          {attachments && <AttachButton isDisabled={!canAttach} onFiles={attachments.onAdd} />}
          <FeatureControls options={options} allowed={allowed} tools={props.tools ?? null} onToggleOption={onToggleOption} onToggleReasoning={onToggleReasoning} />
          <Tooltip content="Prompt library">
            <AriaButton aria-label="Prompt library" onPress={onOpenPrompts} className={iconButton}>
              <BookOpen aria-hidden className="size-4" />
            </AriaButton>
          </Tooltip>
          <div className="flex-1" />
          {stop ? (
            <Tooltip content="Stop">
              <AriaButton type="button" aria-label="Stop reply" isDisabled={!stop.canStop} onPress={stop.onStop} className={roundButton}>
                <Square aria-hidden className="size-4 fill-current" />
              </AriaButton>
            </Tooltip>
          ) : (
            <AriaButton type="submit" aria-label="Send message" isDisabled={!sendEnabled} className={roundButton}>
              <ArrowUp aria-hidden className="size-5" />
            </AriaButton>
          )}
        </div>
      </div>
      {error && (
        <p id="chat-input-error" role="alert" className="mt-1 px-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}
