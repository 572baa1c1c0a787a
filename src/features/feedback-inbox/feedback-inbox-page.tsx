import { useActorRef, useSelector } from '@xstate/react';
import type { InboxItem } from '../../../contract/feedback';
import { feedbackInboxMachine, type InboxFilter } from '../../../machines/feedback-inbox.machine';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { fetchInboxPage } from '../../api/feedback';
import { useSession } from '../../session/session';
import { ListError, ListStatus } from '../../ui/list-status';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineFeedbackInboxActors } from './feedback-inbox-actors';
import { InboxEntry } from './inbox-entry';
import { KindFilterChips } from './kind-filter';

const machine = feedbackInboxMachine.provide({ actors: defineFeedbackInboxActors({ api: { fetchInboxPage } }) });

/**
 * /feedback-inbox: what the organisation's people sent (feedback, issue reports) and how they rated replies,
 * newest first, as cards (the superuser's spans organisations and names each one). A thin view of the
 * feedback-inbox machine.
 */
export default function FeedbackInboxPage() {
  const superuser = useSession((c) => c.user?.role === 'superuser');
  const inbox = useActorRef(machine);
  useNoticeToasts(inbox);
  const listRef = useSelector(inbox, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<InboxItem>(s), samePagerView);
  const kind = useSelector(listRef, (s) => (s.context.filters.kind as InboxFilter | undefined) ?? 'all');
  const busy = list.loading;

  return (
    <div className="mx-auto max-w-4xl space-y-6 p-4 sm:p-6 md:p-10">
      <PageTitle description={superuser ? 'What people of every organisation sent, newest first.' : 'What your organisation’s people sent, newest first.'}>
        Feedback Inbox
      </PageTitle>
      <KindFilterChips value={kind} onChange={(next) => inbox.send({ type: 'inbox.filter', kind: next })} />
      <ListError message={list.error} onRetry={() => inbox.send({ type: 'inbox.retry' })} busy={busy} />
      <section aria-label="Feedback" aria-busy={busy}>
        {list.items.length > 0 && (
          <ul className="space-y-3">
            {list.items.map((item) => (
              <InboxEntry key={item.id} item={item} showOrganisation={superuser} />
            ))}
          </ul>
        )}
        <ListStatus
          hasItems={list.items.length > 0}
          busy={busy}
          loadingLabel="Loading feedback"
          empty={list.error ? null : 'Nothing here yet'}
          className="rounded-xl border border-gray-200 dark:border-gray-700"
        />
      </section>
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => inbox.send({ type: 'inbox.goTo', page })} />
    </div>
  );
}
