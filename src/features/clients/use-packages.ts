import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { PackageView } from '../../../contract/subscriptions';
import { PACKAGES_FETCH_FAILED } from '../../../contract/subscriptions-constants';
import { MAX_PAGE_SIZE, pagerMachine, type PageRequest, type PageResult, type PagerInput } from '../../../machines/pager.machine';
import { fetchPackages } from '../../api/subscriptions';

/** The packages come in one read (GET /packages/ is not paged), as the one page of the shared pager. */
const packagesInput: PagerInput = { pageSize: MAX_PAGE_SIZE, mode: 'append', messages: { load: PACKAGES_FETCH_FAILED } };

export function definePackagesActors({ api }: { api: { fetchPackages: typeof fetchPackages } }) {
  return {
    fetchPage: fromPromise<PageResult, PageRequest>(async ({ signal }) => {
      const items = await api.fetchPackages(signal);
      return { items, page: 1, total: items.length, totalPages: 1 };
    }),
  };
}

const packagesPager = pagerMachine.provide({ actors: definePackagesActors({ api: { fetchPackages } }) });

/**
 * The packages Register New Client offers, read through the shared pager: null while loading; `failed` after a
 * failure (the form says 'Failed to load packages. Please try again.' and offers `retry`).
 */
export function usePackages(): { packages: PackageView[] | null; failed: boolean; retry: () => void } {
  const pager = useActorRef(packagesPager, { input: packagesInput });
  const packages = useSelector(pager, (s) => (s.context.page > 0 && !s.context.error ? (s.context.items as PackageView[]) : null));
  const failed = useSelector(pager, (s) => s.context.error !== null);
  return { packages, failed, retry: () => pager.send({ type: 'pager.load' }) };
}
