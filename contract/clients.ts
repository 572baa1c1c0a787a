import { z } from 'zod';
import {
  AUTH_TYPES,
  CLIENT_DATA_REQUIRED,
  CLIENT_DEFAULTS,
  CLIENT_EMAIL_INVALID,
  CLIENT_EMAIL_MAX_LENGTH,
  CLIENT_EMAIL_REQUIRED,
  CLIENT_FORM_STATUSES,
  CLIENT_NAME_MAX_LENGTH,
  CLIENT_NAME_NOT_TEXT,
  CLIENT_NAME_REQUIRED,
  CLIENT_NAME_TOO_LONG,
  CLIENT_ORIGIN_INVALID,
  CLIENT_ORIGIN_MAX_LENGTH,
  CLIENT_ORIGIN_REQUIRED,
  CLIENT_PAGE_SIZE,
  CLIENT_PHONE_INVALID,
  CLIENT_PHONE_MAX_LENGTH,
  CLIENT_STATUSES,
  CLIENT_TYPES,
  CONTACT_INFO_REQUIRED,
  SUBSCRIPTION_DATA_REQUIRED,
  USAGE_MONTH_INVALID,
  USAGE_YEAR_INVALID,
} from './clients-constants';
import { pageFields } from './envelope';
import { choiceField, pageField, pageSizeField, queryText, requestBody, requiredText } from './fields';
import { subscription, subscriptionFields } from './subscriptions';

export const client = z.object({
  id: z.string(),
  client_name: z.string(),
  contact_info: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
  origin: z.string().nullable(),
  status: z.enum(CLIENT_STATUSES),
  auth_type: z.string().describe('email or ldap (older records may hold sso or local).'),
  client_type: z.string().describe('corporate, educational or individual.'),
  created_at: z.string(),
  updated_at: z.string(),
  subscription: subscription.nullable().describe('The subscription in force now, or null.'),
});
export type Client = z.infer<typeof client>;

/** GET /clients/. */
export const clientListQuery = z.object({
  page: pageField(),
  page_size: pageSizeField(CLIENT_PAGE_SIZE),
  search: queryText('search', 254).optional().describe('Part of the client name or e-mail address, case-insensitively; trimmed.'),
  status: choiceField('status', CLIENT_STATUSES).optional(),
  client_type: choiceField('client_type', CLIENT_TYPES).optional(),
});
export type ClientListQuery = z.input<typeof clientListQuery>;

export const clientList = z.object({ clients: z.array(client), ...pageFields });
export type ClientList = z.infer<typeof clientList>;

const clientName = z
  .string(requiredText(CLIENT_NAME_REQUIRED, CLIENT_NAME_NOT_TEXT))
  .trim()
  .min(1, { error: CLIENT_NAME_REQUIRED })
  .max(CLIENT_NAME_MAX_LENGTH, { error: CLIENT_NAME_TOO_LONG });

/** A client's contact e-mail; the SPA's forms check it with this same schema before sending. */
export const clientEmail = z
  .string(requiredText(CLIENT_EMAIL_REQUIRED, CLIENT_EMAIL_INVALID))
  .trim()
  .min(1, { error: CLIENT_EMAIL_REQUIRED })
  .max(CLIENT_EMAIL_MAX_LENGTH, { error: CLIENT_EMAIL_INVALID })
  .pipe(z.email({ error: CLIENT_EMAIL_INVALID }));

const contactInfo = z.object(
  {
    email: clientEmail,
    phone: z
      .string({ error: CLIENT_PHONE_INVALID })
      .trim()
      .max(CLIENT_PHONE_MAX_LENGTH, { error: CLIENT_PHONE_INVALID })
      .nullable()
      .optional()
      .transform((phone) => phone || null),
  },
  { error: CONTACT_INFO_REQUIRED },
);

const originUrl = z
  .string({ error: (issue) => (issue.input == null ? CLIENT_ORIGIN_REQUIRED : CLIENT_ORIGIN_INVALID) })
  .trim()
  .max(CLIENT_ORIGIN_MAX_LENGTH, { error: CLIENT_ORIGIN_INVALID })
  .refine((text) => text === '' || /^https?:\/\/[^\s/]+/i.test(text), { error: CLIENT_ORIGIN_INVALID });

const authType = choiceField('auth_type', AUTH_TYPES);
const clientType = choiceField('client_type', CLIENT_TYPES);
const formStatus = choiceField('status', CLIENT_FORM_STATUSES);

/** Register New Client's client section: status, auth type and client type default as the form does. */
export const clientData = z.object(
  {
    client_name: clientName,
    contact_info: contactInfo,
    origin: originUrl.refine((text) => text !== '', { error: CLIENT_ORIGIN_REQUIRED }),
    status: formStatus.default(CLIENT_DEFAULTS.status),
    auth_type: authType.default(CLIENT_DEFAULTS.auth_type),
    client_type: clientType.default(CLIENT_DEFAULTS.client_type),
  },
  { error: CLIENT_DATA_REQUIRED },
);
export type ClientData = z.infer<typeof clientData>;

/** POST /clients/register: the client and its first subscription, in one transaction. */
export const registerClientRequest = requestBody({
  client_data: clientData,
  subscription_data: z.object(subscriptionFields, { error: SUBSCRIPTION_DATA_REQUIRED }),
});
export type RegisterClientRequest = z.infer<typeof registerClientRequest>;

/** PUT /clients/{id}: every field of Edit Client; origin and phone may be empty (cleared). */
export const updateClientRequest = requestBody({
  client_name: clientName,
  contact_info: contactInfo,
  origin: originUrl
    .nullable()
    .optional()
    .transform((text) => text || null),
  status: formStatus,
  auth_type: authType,
  client_type: clientType,
});
export type UpdateClientRequest = z.infer<typeof updateClientRequest>;

/** PATCH /clients/{id}/status?status=. */
export const clientStatusQuery = z.object({ status: formStatus });

/** GET /usage-logs/clients/{id}/departments?year=&month=. */
export const clientUsageQuery = z.object({
  year: z
    .string({ error: USAGE_YEAR_INVALID })
    .regex(/^\d{4}$/, { error: USAGE_YEAR_INVALID })
    .transform(Number)
    .refine((year) => year >= 2000 && year <= 2100, { error: USAGE_YEAR_INVALID })
    .optional(),
  month: z
    .string({ error: USAGE_MONTH_INVALID })
    .regex(/^(0?[1-9]|1[0-2])$/, { error: USAGE_MONTH_INVALID })
    .transform(Number)
    .optional()
    .describe('Two digits, 01 to 12; with year. Both absent: the previous calendar month (UTC).'),
});

export const departmentUsage = z.object({
  department_id: z.string().nullable().describe('Null for the row of people without a department.'),
  department_name: z.string(),
  total_requests: z.number().int().min(0).describe('Questions answered (model replies; titles are not requests).'),
  token_usage: z.object({
    prompt_tokens: z.number().int().min(0),
    completion_tokens: z.number().int().min(0),
    total_tokens: z.number().int().min(0),
  }),
  token_costs: z.object({
    prompt_cost: z.number().min(0),
    completion_cost: z.number().min(0),
    total_cost: z.number().min(0),
  }).describe('USD.'),
});
export type DepartmentUsage = z.infer<typeof departmentUsage>;

export const clientUsage = z.object({
  client_id: z.string(),
  year: z.number().int(),
  month: z.string().describe('Two digits, 01 to 12.'),
  departments: z.array(departmentUsage),
});
export type ClientUsage = z.infer<typeof clientUsage>;
