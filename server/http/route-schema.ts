import { errorEnvelope } from '../../contract/envelope';

/** What each error status means on this API, for the OpenAPI document. */
const ERROR_MEANINGS = {
  400: 'Invalid input: `detail` is the sentence to show, `fields` maps each invalid input to its own.',
  401: 'Not signed in, or the session expired or was ended.',
  403: 'Signed in, but not allowed (role, account state, or a feature outside the package).',
  404: 'Not found (or not yours, which looks the same).',
  409: 'Clashes with the current state.',
  413: 'Too large: `detail` names the limit.',
  415: 'Not an accepted type, or the content does not match the name: `detail` says which.',
  429: 'Too many attempts: try again after `Retry-After` seconds.',
  503: 'A service this depends on (the database) does not answer.',
} as const;

export type ErrorStatus = keyof typeof ERROR_MEANINGS;

/** The error envelope under each given status, as a route's `response` entries. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelope.describe(ERROR_MEANINGS[status])])) as Record<
    ErrorStatus,
    typeof errorEnvelope
  >;
}
