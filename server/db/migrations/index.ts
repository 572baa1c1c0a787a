import type { Migration } from 'kysely';
import * as foundation from './2026-11-22-01-foundation';
import * as chat from './2026-11-23-01-chat';
import * as replyLeases from './2026-11-23-03-reply-leases';
import * as streamingSearch from './2026-11-23-04-streaming-search';
import * as sharingPromptsTipsFeedback from './2026-11-23-05-sharing-prompts-tips-feedback';
import * as stoppedReplies from './2026-11-23-06-stopped-replies';
import * as globalPolicies from './2026-11-24-01-global-policies';
import * as departmentNames from './2026-11-24-02-department-names';
import * as activations from './2026-11-24-03-activations';
import * as usageReports from './2026-11-24-04-usage-reports';
import * as documents from './2026-11-24-05-documents';
import * as documentSearch from './2026-11-24-06-document-search';
import * as messageLength from './2026-11-27-02-message-length';
import * as sessionVersion from './2026-11-27-03-session-version';
import * as replyRatings from './2026-11-28-02-reply-ratings';
import * as documentMessage from './2026-11-28-05-document-message';
import * as userTheme from './2026-11-28-03-user-theme';
import * as jobs from './2026-11-29-01-jobs';
import * as clients from './2026-11-30-01-clients';
import * as oauthSystemPrompts from './2026-11-30-02-oauth-system-prompts';
import * as contactLeadsLdap from './2026-12-01-01-contact-leads-ldap';
import * as clientsNameOrder from './2026-12-02-01-clients-name-order';

/** Every migration, in order. Listed by hand: no filesystem glob, so bundlers and tsx see them all. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-01-foundation': foundation,
  '2026-11-23-01-chat': chat,
  '2026-11-23-03-reply-leases': replyLeases,
  '2026-11-23-04-streaming-search': streamingSearch,
  '2026-11-23-05-sharing-prompts-tips-feedback': sharingPromptsTipsFeedback,
  '2026-11-23-06-stopped-replies': stoppedReplies,
  '2026-11-24-01-global-policies': globalPolicies,
  '2026-11-24-02-department-names': departmentNames,
  '2026-11-24-03-activations': activations,
  '2026-11-24-04-usage-reports': usageReports,
  '2026-11-24-05-documents': documents,
  '2026-11-24-06-document-search': documentSearch,
  '2026-11-27-02-message-length': messageLength,
  '2026-11-27-03-session-version': sessionVersion,
  '2026-11-28-02-reply-ratings': replyRatings,
  '2026-11-28-05-document-message': documentMessage,
  '2026-11-28-03-user-theme': userTheme,
  '2026-11-29-01-jobs': jobs,
  '2026-11-30-01-clients': clients,
  '2026-11-30-02-oauth-system-prompts': oauthSystemPrompts,
  '2026-12-01-01-contact-leads-ldap': contactLeadsLdap,
  '2026-12-02-01-clients-name-order': clientsNameOrder,
};
