import { z } from 'zod';
import { choiceField, ID_MAX_LENGTH, idField, limitField, pageField, requestBody } from './fields';
import {
  DATE_INVALID,
  EXPIRY_DATE_REQUIRED,
  FAIR_USE_INVALID,
  FAIR_USE_LIMIT,
  MAX_USERS_INVALID,
  MAX_USERS_LIMIT,
  PACKAGE_REQUIRED,
  SORT_FIELD_INVALID,
  SORT_ORDER_INVALID,
  START_DATE_REQUIRED,
  SUBSCRIPTION_CLIENT_REQUIRED,
  SUBSCRIPTION_PAGE_SIZE,
  SUBSCRIPTION_SORT_FIELDS,
  SUBSCRIPTION_STATUSES,
  type SubscriptionSortField,
} from './subscriptions-constants';

/** A package as the Register and Create Subscription forms choose it (GET /packages/). */
export const packageView = z.object({
  id: z.string(),
  type: z.string().describe('standard, premium, ...'),
  features: z.array(z.string()).describe("What the package allows in the chat (browsing, image_generation, reasoning)."),
});
export type PackageView = z.infer<typeof packageView>;
export const packageList = z.array(packageView);

export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES).describe(
  'Derived from the dates at the time of the answer: active when start <= now <= expiry, upcoming before the start, expired after the expiry.',
);

export const subscription = z.object({
  id: z.string(),
  client_id: z.string(),
  package_id: z.string(),
  package_name: z.string(),
  package: z.object({
    type: z.string(),
    features: z.array(z.string()),
    start_date: z.string().describe("The subscription's start (ISO-8601 UTC)."),
    end_date: z.string().describe("The subscription's expiry (ISO-8601 UTC)."),
  }),
  max_users: z.number().int().min(1),
  fair_use: z.number().int().min(1).describe('Millions of tokens per seat per calendar month (see the README).'),
  start_date: z.string().describe('ISO-8601 UTC'),
  expire_date: z.string().describe('ISO-8601 UTC'),
  status: subscriptionStatus,
  created_at: z.string(),
});
export type Subscription = z.infer<typeof subscription>;

const LAST_INSTANT = Date.UTC(10000, 0, 1);

/** A timestamp with its time zone (what toISOString sends), stored as ISO-8601 UTC so periods compare as text. */
const instantField = (label: string, missing: string) =>
  z
    .string({ error: (issue) => (issue.input == null ? missing : DATE_INVALID(label)) })
    .min(1, { error: missing })
    .pipe(z.iso.datetime({ offset: true, error: DATE_INVALID(label) }))
    // Within years 1970 to 9999 in UTC too (an offset can carry 0000 or 9999 past them), so stored dates sort as text.
    .refine((text) => Date.parse(text) >= 0 && Date.parse(text) < LAST_INSTANT, { error: DATE_INVALID(label) })
    .transform((text) => new Date(text).toISOString())
    .describe('ISO-8601 date and time with a time zone (Z or an offset); stored in UTC.');

/** An id the form must choose: `missing` when absent or empty, the id rule's sentence when too long to be one. */
const chosenId = (name: string, missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .max(ID_MAX_LENGTH, { error: `${name} must be an id of at most ${ID_MAX_LENGTH} characters` });

const wholeNumberField = (message: string, max: number) =>
  z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(max, { error: message });

/** The subscription fields of Create New Subscription and of Register New Client's subscription section. */
export const subscriptionFields = {
  package_id: chosenId('package_id', PACKAGE_REQUIRED),
  max_users: wholeNumberField(MAX_USERS_INVALID, MAX_USERS_LIMIT).describe('Seats: active people at most (whole number >= 1).'),
  fair_use: wholeNumberField(FAIR_USE_INVALID, FAIR_USE_LIMIT).describe(
    'Millions of tokens per seat per calendar month (whole number >= 1): the allowance is fair_use x max_users x 1,000,000 tokens.',
  ),
  start_date: instantField('Start date', START_DATE_REQUIRED),
  expire_date: instantField('Expiry date', EXPIRY_DATE_REQUIRED),
};
export type SubscriptionData = z.infer<z.ZodObject<typeof subscriptionFields>>;

/** POST /subscriptions/. */
export const createSubscriptionRequest = requestBody({
  client_id: chosenId('client_id', SUBSCRIPTION_CLIENT_REQUIRED),
  ...subscriptionFields,
});
export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionRequest>;

/** A comma list in the query (`sort_by=status,start_date`), each piece checked against `values`. */
const commaList = <T extends string>(values: readonly T[], message: string) =>
  z
    .string({ error: message })
    .max(200, { error: message })
    .transform((text, ctx) => {
      const pieces = text.split(',').map((piece) => piece.trim());
      if (!pieces.every((piece): piece is T => (values as readonly string[]).includes(piece))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return pieces;
    });

/** GET /subscriptions/: one client's subscriptions. */
export const subscriptionListQuery = z.object({
  client_id: z
    .string({ error: SUBSCRIPTION_CLIENT_REQUIRED })
    .pipe(idField('client_id'))
    .describe('Whose subscriptions (required; 404 when there is no such client).'),
  page: pageField(),
  limit: limitField(SUBSCRIPTION_PAGE_SIZE),
  status: choiceField('status', SUBSCRIPTION_STATUSES).optional().describe('Only the subscriptions of this derived status (`active`: the one in force).'),
  sort_by: commaList<SubscriptionSortField>(SUBSCRIPTION_SORT_FIELDS, SORT_FIELD_INVALID)
    .optional()
    .describe('Comma list, first field first (default `status,start_date`). `status` sorts active > upcoming > expired.'),
  sort_order: commaList<'asc' | 'desc'>(['asc', 'desc'], SORT_ORDER_INVALID)
    .optional()
    .describe('Comma list, one per sort_by field (default desc for each).'),
});
export type SubscriptionListQuery = z.input<typeof subscriptionListQuery>;

export const subscriptionList = z.object({
  subscriptions: z.array(subscription),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  total: z.number().int().min(0),
  total_pages: z.number().int().min(0),
});
export type SubscriptionList = z.infer<typeof subscriptionList>;
