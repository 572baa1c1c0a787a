import type { AppContext } from './context';
import { ingestionGaveUp, ingestionJob } from './services/documents/ingest/ingest-document';
import { sendActivationMail } from './services/identity/activation-mail';
import { sendDirectoryWelcomeMail } from './services/identity/directory-welcome-mail';
import { upkeepHandlers } from './upkeep';
import { sendPasswordResetMail } from './services/identity/reset-mail';
import { sendLeadMail } from './services/contact/lead-mail';
import { titleJob } from './services/chat/titles';
import type { JobHandlers } from './platform/jobs/queue';

/**
 * Every job's handler, by name: the one place that says what a job name does, how often it is tried, and what is
 * recorded when it is given up. Payloads are ids; handlers read the rows afresh (they may have changed or gone).
 */
export function jobHandlers(ctx: AppContext): JobHandlers {
  return {
    'ingest-document': {
      run: ({ documentId }) => ingestionJob(ctx, documentId),
      // ingestDocument records its own failures on the document; what is left to retry is a process that died.
      maxAttempts: 3,
      gaveUp: ({ documentId }) => ingestionGaveUp(ctx, documentId),
    },
    'conversation-title': {
      run: (payload) => titleJob(ctx, payload),
      maxAttempts: 3,
    },
    // An SMTP server that is down for a while: tried again with a growing wait (8 tries over about 10 minutes by default).
    'password-reset-mail': {
      run: ({ userId }) => sendPasswordResetMail(ctx, userId),
    },
    // Its one attempt is awaited by the request, which reports a failure: the admin resends (a later retry would mail a
    // link the resend has ended).
    'activation-mail': {
      run: ({ userId }) => sendActivationMail(ctx, userId),
      maxAttempts: 1,
    },
    // Like a reset mail: retried while the mail server is down (there is no link to end, so a late mail still helps).
    'directory-welcome-mail': {
      run: ({ userId }) => sendDirectoryWelcomeMail(ctx, userId),
    },
    // Like a reset mail: retried while the mail server is down; the lead is stored already.
    'contact-lead-mail': {
      run: ({ leadId }) => sendLeadMail(ctx, leadId),
    },
    ...upkeepHandlers(ctx),
  };
}
