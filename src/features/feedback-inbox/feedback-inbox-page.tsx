import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { InboxItem } from '../../../contract/feedback';
import type { InboxFilter } from '../../../machines/feedback-inbox.machine';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { fetchInboxPage } from '../../api/feedback';
import { useSession } from '../../session/session';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { defineFeedbackInboxMachine } from './feedback-inbox-actors';
import { InboxEntry } from './inbox-entry';
import { KindFilterChips } from './kind-filter';

const machine = defineFeedbackInboxMachine({ api: { fetchInboxPage } });

/**
 * /feedback-inbox: what the organisation's people sent (feedback, issue reports) and how they rated replies,
 * newest first, as cards (the superuser's spans organisations and names each one). A thin view of the
 * feedback-inbox machine.
 */
export default function FeedbackInboxPage() {
  const superuser = useSession((c) => c.user?.role === 'superuser');
  const inbox = useActorRef(machine);
  useEffect(() => {
    const sub = inbox.on('notice.show', (n) => toast[n.tone](n.text));
    return () => sub.unsubscribe();
  }, [inbox]);
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
      {list.error && (
        <div className="flex flex-wrap items-center gap-3">
          <div className="min-w-0 flex-1">
            <ErrorBanner message={list.error} />
          </div>
          <Button onPress={() => inbox.send({ type: 'inbox.retry' })} isDisabled={busy}>
            Try again
          </Button>
        </div>
      )}
      <section aria-label="Feedback" aria-busy={busy}>
        {list.items.length > 0 && (
          <ul className="space-y-3">
            {list.items.map((item) => (
              <InboxEntry key={item.id} item={item} showOrganisation={superuser} />
            ))}
          </ul>
        )}
        {busy && list.items.length === 0 && (
          <div className="flex justify-center p-6">
            <Spinner label="Loading feedback" />
          </div>
        )}
        {!busy && !list.error && list.items.length === 0 && (
          <p className="rounded-xl border border-gray-200 p-6 text-center text-sm text-gray-700 dark:border-gray-700 dark:text-gray-300">
            Nothing here yet
          </p>
        )}
      </section>
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => inbox.send({ type: 'inbox.goTo', page })} />
    </div>
  );
}
