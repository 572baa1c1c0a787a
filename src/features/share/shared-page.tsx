import { useParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { SharedConversation } from '../../../contract/shares';
import {
  LINK_UNAVAILABLE,
  LINK_UNAVAILABLE_HINT,
  NO_SHARED_MESSAGES,
  sharedConversationMachine,
  sharedTitle,
  type SharedConversationInput,
} from '../../../machines/shared-conversation.machine';
import { fetchSharedConversation } from '../../api/shares';
import { withAnswerStatus } from '../../lib/answer-status';
import { shallowEqual } from '../../lib/shallow-equal';
import { downloadOwnFile } from '../../lib/own-file-download';
import { AssistantMarkdown } from '../../ui/markdown/assistant-markdown';
import { FileDownloadContext } from '../../ui/markdown/file-download-context';
import { UserMessageText } from '../../ui/markdown/user-message-text';
import { Button, ButtonLink } from '../../ui/button';
import { Spinner } from '../../ui/spinner';

const machine = sharedConversationMachine.provide({
  actors: {
    load: fromPromise<SharedConversation, SharedConversationInput>(({ input, signal }) =>
      // The server's sentence and status: a refused link (404) is told from a failure worth trying again.
      withAnswerStatus(fetchSharedConversation(input.shareId, signal)),
    ),
  },
});

/**
 * /share/{shared_id}: the conversation as its owner shared it, read-only (spec "Shared view"): no input, edit,
 * share or save. Only signed-in people of the conversation's organisation see it (the server checks).
 */
export default function SharedPage() {
  const { sharedId = '' } = useParams();
  // A new link in the URL is a new view (the route keeps the component): keyed by the id below. Document cards
  // download with the token (a plain link cannot send it).
  return (
    <FileDownloadContext value={downloadOwnFile}>
      <SharedView key={sharedId} shareId={sharedId} />
    </FileDownloadContext>
  );
}

function SharedView({ shareId }: { shareId: string }) {
  const actor = useActorRef(machine, { input: { shareId } });
  const view = useSelector(
    actor,
    (s) => ({
      loading: s.hasTag('loading'),
      empty: s.matches('empty'),
      unavailable: s.matches('unavailable'),
      failure: s.context.failure,
      shared: s.context.shared,
    }),
    shallowEqual,
  );
  return (
    <div className="flex h-dvh flex-col bg-chat-light text-gray-900 dark:bg-chat-dark dark:text-gray-100">
      <header className="flex h-14 shrink-0 items-center border-b border-gray-300 px-4 dark:border-gray-700">
        <h1 className="min-w-0 flex-1 truncate text-base font-semibold">{sharedTitle(view.shared)}</h1>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto w-full max-w-3xl px-4 py-4">
          {view.loading && (
            <div className="flex justify-center py-10">
              <Spinner label="Loading shared conversation" />
            </div>
          )}
          {view.failure && (
            <div role="alert" className="flex flex-col items-center gap-2 py-10 text-center">
              <p className="font-semibold">{view.failure.text}</p>
              {view.failure.detail && <p className="text-sm text-gray-700 dark:text-gray-300">{view.failure.detail}</p>}
              <Button variant="secondary" size="sm" onPress={() => actor.send({ type: 'retry' })}>
                Try again
              </Button>
            </div>
          )}
          {view.unavailable && (
            <div role="alert" className="flex flex-col items-center gap-2 py-10 text-center">
              <p className="font-semibold">{LINK_UNAVAILABLE}</p>
              <p className="text-sm text-gray-700 dark:text-gray-300">{LINK_UNAVAILABLE_HINT}</p>
              <ButtonLink href="/home" variant="secondary" size="sm" className="mt-2">
                Go Home
              </ButtonLink>
            </div>
          )}
          {view.empty && <p className="py-10 text-center text-gray-700 dark:text-gray-300">{NO_SHARED_MESSAGES}</p>}
          {!view.empty &&
            view.shared?.messages.map((m) =>
              m.sender === 'user' ? (
                <article key={m.id} aria-label="Shared question" className="flex justify-end py-3">
                  <div className="max-w-[85%] rounded-2xl bg-white px-4 py-2.5 shadow-xs dark:bg-gray-700">
                    <UserMessageText text={m.content} />
                  </div>
                </article>
              ) : (
                <article key={m.id} aria-label="Shared reply" className="py-3">
                  <AssistantMarkdown content={m.content} />
                </article>
              ),
            )}
        </div>
      </div>
      <footer className="shrink-0 border-t border-gray-300 px-4 py-3 text-center text-sm text-gray-700 dark:border-gray-700 dark:text-gray-300">
        This is a shared conversation. You are viewing it in read-only mode.
      </footer>
    </div>
  );
}
