import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Link2Off, MessageSquare } from 'lucide-react';
import type { ShareSummary } from '../../../contract/shares';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { revokeLink, sharedLinksInput, type Revocation } from '../../../machines/shared-links.machine';
import { fetchMyShares, revokeShareLink } from '../../api/shares';
import { SHARED_TITLE_FALLBACK } from '../../../machines/shared-conversation.machine';
import { formatDateTime } from '../../lib/format-date';
import { shallowEqual } from '../../lib/shallow-equal';
import { useSession } from '../../session/session';
import { Button, ButtonLink } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { ListStatus } from '../../ui/list-status';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineSharedLinksActors } from './shared-links-actors';

const machine = recordEditorMachine.provide({ actors: defineSharedLinksActors({ api: { fetchMyShares, revokeShareLink } }) });

const titleOf = (share: Pick<ShareSummary, 'title'>) => share.title.trim() || SHARED_TITLE_FALLBACK;
/** The link as the SPA routes it (the share URL is absolute, under PUBLIC_URL). */
const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** /shared-links ('Shared Links', issue 28): a thin view of the record editor with the shared links' input. */
export default function SharedLinksPage() {
  const links = useActorRef(machine, { input: sharedLinksInput });
  useNoticeToasts(links);
  const role = useSession((c) => c.user?.role ?? null);
  const listRef = useSelector(links, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<ShareSummary>(s), samePagerView);
  const state = useSelector(
    links,
    (s) => ({
      confirming: s.matches('confirming') || s.matches('acting'),
      revoking: s.hasTag('busy'),
      revocation: s.context.target as Revocation | null,
    }),
    shallowEqual,
  );
  // The dialog keeps its question while it closes (the machine has already let go of which link it was).
  const lastRevocation = useRef(state.revocation);
  if (state.revocation) lastRevocation.current = state.revocation;

  return (
    <div className="mx-auto max-w-3xl space-y-6 p-4 sm:p-6 md:p-10">
      {role === 'user' && (
        <nav aria-label="Account" className="flex justify-end">
          <ButtonLink href="/chat" variant="ghost" size="sm">
            Back to Chat
          </ButtonLink>
        </nav>
      )}
      <PageTitle description="Links you made to your conversations. Colleagues in your organisation can read a conversation through its link, as it was when you shared it.">
        Shared Links
      </PageTitle>
      {list.items.length > 0 && (
        <ul aria-label="Shared links" className="space-y-3">
          {list.items.map((share) => (
            <li
              key={share.id}
              className="flex flex-col gap-3 rounded-xl border border-gray-200 bg-white p-4 sm:flex-row sm:items-center dark:border-gray-700 dark:bg-gray-900"
            >
              <div className="min-w-0 flex-1 space-y-1">
                <p className="truncate font-medium text-gray-900 dark:text-gray-50">{titleOf(share)}</p>
                <p className="truncate text-sm">
                  <Link
                    to={pathOf(share.share_url)}
                    className="text-blue-700 underline-offset-4 hover:underline dark:text-blue-300"
                  >
                    {share.share_url}
                  </Link>
                </p>
                <p className="text-xs text-gray-600 dark:text-gray-300">Shared {formatDateTime(share.created_at)}</p>
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <ButtonLink href={`/chat?id=${encodeURIComponent(share.conversation_id)}`} size="sm" aria-label={`Open conversation ${titleOf(share)}`}>
                  <MessageSquare aria-hidden className="size-4" /> Open
                </ButtonLink>
                <Button
                  size="sm"
                  aria-label={`Stop sharing ${titleOf(share)}`}
                  onPress={() => links.send(revokeLink({ shareId: share.id, title: titleOf(share) }))}
                >
                  <Link2Off aria-hidden className="size-4" /> Stop sharing
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ListStatus
        hasItems={list.items.length > 0}
        busy={list.loading}
        loadingLabel="Loading shared links"
        empty={list.error ?? 'You have not shared any conversations. Use Share in a conversation to make a link.'}
        className="rounded-xl border border-dashed border-gray-300 dark:border-gray-600"
      />
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => links.send({ type: 'list.goTo', page })} />
      <ConfirmDialog
        isOpen={state.confirming}
        onOpenChange={(open) => !open && links.send({ type: 'act.cancel' })}
        onConfirm={() => links.send({ type: 'act.confirm' })}
        isPending={state.revoking}
        title="Stop Sharing"
        message={
          <>
            <p>
              Stop sharing <strong>{lastRevocation.current?.title}</strong>?
            </p>
            <p className="mt-2">The link will stop working for everyone who has it. Sharing the conversation again makes a new link.</p>
          </>
        }
        confirmLabel="Stop sharing"
      />
    </div>
  );
}
