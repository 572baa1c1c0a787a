/** API paths of the contract, relative to the `/api/v1` prefix. */
export const API_PREFIX = '/api/v1';

export const paths = {
  health: '/health',
  healthReady: '/health/ready',
  login: '/auth/login',
  refresh: '/auth/refresh',
  logout: '/auth/logout',
  requestResetPassword: '/auth/request-reset-password',
  resetPassword: '/auth/reset-password',
  /** Whether a reset link still works, asked before the password is typed. */
  resetPasswordCheck: '/auth/reset-password/check',
  microsoftSso: '/auth/social/microsoft/',
  googleSso: '/auth/social/google/',
  /** Where the identity provider sends the browser back (one for both providers; the state says which). */
  ssoCallback: '/auth/social/callback',
  register: '/auth/register',
  resendActivation: '/auth/resend-activation',
  activate: '/auth/activate',
  /** Whether an activation link still works, asked before the password is typed. */
  activateCheck: '/auth/activate/check',
  me: '/users/me',
  /** PATCH: the signed-in person's own preferences (body in contract/preferences.ts). */
  preferences: '/users/me/preferences',
  updateProfile: '/users/me/update-profile',
  users: '/users/',
  user: '/users/:id',
  userStatus: '/users/:id/status',
  departments: '/departments/',
  department: '/departments/:id',
  departmentUnits: '/departments/:id/units',
  departmentUnit: '/departments/:id/units/:unitId',
  conversations: '/chat/conversations',
  conversationSearch: '/chat/conversations/search',
  conversation: '/chat/conversations/:id',
  conversationMessages: '/chat/conversations/:id/messages',
  conversationRecentMessages: '/chat/conversations/:id/messages/recent',
  conversationRename: '/chat/conversations/:id/rename',
  messages: '/chat/messages',
  messageStop: '/chat/messages/:id/stop',
  /** Follows a reply being written, from any instance (text so far, then live). */
  messageStream: '/chat/messages/:id/stream',
  messageRating: '/chat/messages/:id/rating',
  shareConversation: '/shares/conversations/:id',
  share: '/shares/:shareId',
  /** My shared links (GET); a share is revoked with DELETE on `share`. */
  shares: '/shares/',
  promptLibrary: '/prompt-libraries/',
  promptLibraryEntry: '/prompt-libraries/:id',
  tips: '/tips/',
  feedbacks: '/feedbacks/',
  feedbackInbox: '/feedbacks/inbox',
  /** The landing page's 'Let's Register!' form (public POST); its settings for the browser (public GET). */
  contactForm: '/feedbacks/contact-form',
  contactFormSettings: '/feedbacks/contact-form/settings',
  /** The contact form's leads, newest first (superuser). */
  contactLeads: '/feedbacks/contact-leads',
  /** A premium client's LDAP directory settings (superuser): GET, PUT, DELETE. */
  clientLdapSettings: '/clients/:id/ldap-settings',
  globalPolicy: '/global-policy/',
  dashboardGenerate: '/usage-logs/dashboard/generate',
  dashboardLatest: '/usage-logs/dashboard/latest',
  departmentReport: '/usage-logs/admin/client/report',
  userReport: '/usage-logs/admin/user/report',
  documents: '/documents/',
  documentUpload: '/documents/upload/:conversationId',
  document: '/documents/:id',
  documentFile: '/documents/:id/file',
  /** The superuser's client organisations, their packages, subscriptions, quota and usage. */
  clients: '/clients/',
  clientRegister: '/clients/register',
  client: '/clients/:id',
  clientStatus: '/clients/:id/status',
  clientQuota: '/quotas/client/:id',
  clientDepartmentUsage: '/usage-logs/clients/:id/departments',
  packages: '/packages/',
  subscriptions: '/subscriptions/',
  /** A client's OAuth sign-in settings (superuser). */
  clientOAuthConfigs: '/clients/:id/oauth-configs',
  clientOAuthConfig: '/clients/:id/oauth-configs/:configId',
  /** The superuser's system prompts. */
  systemPrompts: '/system-prompts/',
  systemPromptPreview: '/system-prompts/preview',
  systemPrompt: '/system-prompts/:id',
  systemPromptActivate: '/system-prompts/:id/activate',
  systemPromptDeactivate: '/system-prompts/:id/deactivate',
  /** A stored image by its unguessable key (an <img> cannot send a bearer token): generated and pasted images. */
  fileByKey: '/files/:key',
} as const;

/** Fills `:name` segments of a path pattern, URI-encoding each value. */
export function pathTo(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathTo: missing ${name} for ${pattern}`);
    return encodeURIComponent(value);
  });
}
