import { fromPromise } from 'xstate';
import type { ClientDetails } from '../../../machines/client-details.machine';
import type { ClientUsageInput } from '../../../machines/client-usage.machine';
import { subscriptionFormMachine } from '../../../machines/subscription-form.machine';
import type { ClientUsage } from '../../../contract/clients';
import type { CreateSubscriptionRequest, PackageView, Subscription } from '../../../contract/subscriptions';
import type { fetchClient } from '../../api/client-details';
import type { fetchClientUsage } from '../../api/client-usage';
import type { createSubscription, fetchAllSubscriptions, fetchPackages } from '../../api/subscriptions';
import { withServerDetail } from '../../lib/load-failure';

/** The API functions Client Details, Create New Subscription and Client Usage Analytics call (tests pass fakes). */
export interface ClientDetailsApi {
  fetchClient: typeof fetchClient;
  fetchAllSubscriptions: typeof fetchAllSubscriptions;
  fetchPackages: typeof fetchPackages;
  createSubscription: typeof createSubscription;
  fetchClientUsage: typeof fetchClientUsage;
}

/**
 * The side effects of the Client Details modal (machines/client-details.machine.ts, with Create New Subscription
 * inside) and of Client Usage Analytics (machines/client-usage.machine.ts). Failures carry the server's sentence
 * (its overlap sentence on a refused subscription). `clientDetailsMachine.provide({ actors: defineClientDetailsActors({ api }) })`.
 */
export function defineClientDetailsActors({ api }: { api: ClientDetailsApi }) {
  return {
    loadDetails: fromPromise<ClientDetails, { clientId: string }>(({ input, signal }) =>
      withServerDetail(
        Promise.all([api.fetchClient(input.clientId, signal), api.fetchAllSubscriptions(input.clientId, signal)]).then(
          ([client, subscriptions]) => ({ client, subscriptions }),
        ),
      ),
    ),
    subscriptionForm: subscriptionFormMachine.provide({
      actors: {
        fetchPackages: fromPromise<PackageView[], void>(({ signal }) => withServerDetail(api.fetchPackages(signal))),
        createSubscription: fromPromise<Subscription, CreateSubscriptionRequest>(({ input }) => withServerDetail(api.createSubscription(input))),
      },
    }),
    fetchUsage: fromPromise<ClientUsage, ClientUsageInput>(({ input, signal }) =>
      withServerDetail(api.fetchClientUsage(input.clientId, input.period, signal)),
    ),
  };
}
