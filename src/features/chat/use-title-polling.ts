import { useEffect, useMemo, useRef } from 'react';
import { createActor, fromPromise, type Actor } from 'xstate';
import { CONVERSATION_PAGE_SIZE, DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import { titlePollingMachine, type TitlePollingEmitted } from '../../../machines/title-polling.machine';
import { fetchConversations } from '../../api/chat';

/** Spec: the app polls the conversation list for the new title; a fresh conversation is on its first page. */
const machine = titlePollingMachine.provide({
  actors: {
    fetchTitle: fromPromise(async ({ input }: { input: { conversationId: string } }) => {
      const page = await fetchConversations(1, CONVERSATION_PAGE_SIZE);
      return page.conversations.find((c) => c.id === input.conversationId)?.title ?? DEFAULT_CONVERSATION_TITLE;
    }),
  },
});

/** At most one title poll at a time, for the conversation on screen; leaving it stops the poll. */
export function useTitlePolling(onTitle: (conversationId: string, title: string) => void) {
  const current = useRef<{ id: string; actor: Actor<typeof machine> } | null>(null);
  const onTitleRef = useRef(onTitle);
  useEffect(() => {
    onTitleRef.current = onTitle;
  });

  const api = useMemo(() => {
    const stop = () => {
      current.current?.actor.send({ type: 'polling.stop' });
      current.current?.actor.stop();
      current.current = null;
    };
    return {
      start(conversationId: string) {
        stop();
        const actor = createActor(machine, { input: { conversationId, title: DEFAULT_CONVERSATION_TITLE } });
        actor.on('title.changed', (e: TitlePollingEmitted) => onTitleRef.current(e.conversationId, e.title));
        actor.start();
        current.current = { id: conversationId, actor };
      },
      /** Stops the poll unless it belongs to the conversation now shown. */
      stopUnless(conversationId: string | null) {
        if (current.current && current.current.id !== conversationId) stop();
      },
      stop,
    };
  }, []);

  useEffect(() => api.stop, [api]);
  return api;
}
