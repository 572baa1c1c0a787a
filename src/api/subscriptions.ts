import { paths } from '../../contract/api-paths';
import type { CreateSubscriptionRequest, PackageView, Subscription, SubscriptionList } from '../../contract/subscriptions';
import { api } from './http';

/** The packages a subscription can be of (GET /packages/). */
export async function fetchPackages(signal?: AbortSignal): Promise<PackageView[]> {
  return (await api.get<PackageView[]>(paths.packages, { signal })).data;
}

/** One page of a client's subscriptions, Active then Upcoming then Expired, newest start first (the spec's sort). */
export async function fetchSubscriptionPage(clientId: string, page: number, signal?: AbortSignal): Promise<SubscriptionList> {
  const query = { client_id: clientId, page, sort_by: 'status,start_date', sort_order: 'desc,desc' };
  return (await api.get<SubscriptionList>(paths.subscriptions, { query, signal })).data;
}

/** Every subscription of the client: each page in turn (the overlap check needs all of them). */
export async function fetchAllSubscriptions(clientId: string, signal?: AbortSignal): Promise<Subscription[]> {
  const first = await fetchSubscriptionPage(clientId, 1, signal);
  const all = [...first.subscriptions];
  for (let page = 2; page <= first.total_pages; page++) {
    all.push(...(await fetchSubscriptionPage(clientId, page, signal)).subscriptions);
  }
  return all;
}

/** POST /subscriptions/: refused with 400 `subscription_overlap` and the spec's sentence when the period meets another. */
export async function createSubscription(body: CreateSubscriptionRequest): Promise<Subscription> {
  return (await api.post<Subscription>(paths.subscriptions, body)).data;
}
