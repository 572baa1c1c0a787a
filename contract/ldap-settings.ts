import { z } from 'zod';
import { requestBody, switchField } from './fields';
import {
  LDAP_DN_MAX_LENGTH,
  LDAP_FILTER_MAX_LENGTH,
  LDAP_FILTER_PARENTHESES,
  LDAP_FILTER_PLACEHOLDER,
  LDAP_MODE_REQUIRED,
  LDAP_PLACEHOLDERS,
  LDAP_SEARCH_BASE_REQUIRED,
  LDAP_SECRET_MAX_LENGTH,
  LDAP_TEMPLATE_PLACEHOLDER,
  LDAP_URL_INVALID,
  LDAP_URL_MAX_LENGTH,
  LDAP_URL_REQUIRED,
} from './ldap-settings-constants';

/** A client's directory as answered: the service account's password never (write-only). */
export const ldapSettings = z.object({
  client_id: z.string(),
  url: z.string(),
  bind_dn_template: z.string().nullable(),
  search_base: z.string().nullable(),
  search_filter: z.string().nullable(),
  service_bind_dn: z.string().nullable(),
  has_service_password: z.boolean(),
  tls_reject_unauthorized: z.boolean(),
  updated_at: z.string(),
});
export type LdapSettings = z.infer<typeof ldapSettings>;

const optionalText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text or null` })
    .trim()
    .max(max, `${name} cannot be more than ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => v || null);

const hasPlaceholder = (text: string) => LDAP_PLACEHOLDERS.some((p) => text.includes(p));

/**
 * PUT /clients/{id}/ldap-settings: the whole settings. Two ways to find a person: a bind DN template
 * (`uid={username},ou=people,dc=example,dc=com`, or `{email}` for Active Directory's user principal names), or a
 * search (base and filter, optionally as a service account) whose one entry is then bound with the password.
 * `service_bind_password` is sent only when set or changed; null removes it.
 */
export const ldapSettingsRequest = requestBody({
  url: z
    .string({ error: (issue) => (issue.input == null ? LDAP_URL_REQUIRED : 'url must be text') })
    .trim()
    .min(1, LDAP_URL_REQUIRED)
    .max(LDAP_URL_MAX_LENGTH, `url cannot be more than ${LDAP_URL_MAX_LENGTH} characters`)
    .refine((url) => /^ldaps?:\/\/[^\s/]+/i.test(url), LDAP_URL_INVALID),
  bind_dn_template: optionalText('bind_dn_template', LDAP_DN_MAX_LENGTH),
  search_base: optionalText('search_base', LDAP_DN_MAX_LENGTH),
  search_filter: optionalText('search_filter', LDAP_FILTER_MAX_LENGTH),
  service_bind_dn: optionalText('service_bind_dn', LDAP_DN_MAX_LENGTH),
  service_bind_password: z
    .string({ error: 'service_bind_password must be text or null' })
    .max(LDAP_SECRET_MAX_LENGTH, `service_bind_password cannot be more than ${LDAP_SECRET_MAX_LENGTH} characters`)
    .nullable()
    .optional()
    .describe('Write-only, stored encrypted. Absent: keep the stored one; null or empty: remove it.'),
  tls_reject_unauthorized: switchField('tls_reject_unauthorized').default(true),
}).superRefine((body, issues) => {
  const add = (path: string, message: string) => issues.addIssue({ code: 'custom', path: [path], message });
  if (!body.bind_dn_template && !body.search_filter) add('bind_dn_template', LDAP_MODE_REQUIRED);
  if (body.bind_dn_template && !hasPlaceholder(body.bind_dn_template)) add('bind_dn_template', LDAP_TEMPLATE_PLACEHOLDER);
  if (body.search_filter) {
    if (!hasPlaceholder(body.search_filter)) add('search_filter', LDAP_FILTER_PLACEHOLDER);
    if (!/^\(.*\)$/.test(body.search_filter)) add('search_filter', LDAP_FILTER_PARENTHESES);
    if (!body.search_base) add('search_base', LDAP_SEARCH_BASE_REQUIRED);
  }
});
export type LdapSettingsRequest = z.input<typeof ldapSettingsRequest>;
export type LdapSettingsInput = z.output<typeof ldapSettingsRequest>;

