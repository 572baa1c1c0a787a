import type { ColumnType, Generated } from 'kysely';

/**
 * Row types as stored. Conventions that hold on SQLite and PostgreSQL alike:
 * ids are text UUIDs, timestamps are ISO-8601 UTC text (they sort lexicographically),
 * booleans are integers 0/1 (repositories map them), JSON is text.
 */
export type IsoTimestamp = string;
export type IntBool = 0 | 1;

export interface ClientsTable {
  id: string;
  client_name: string;
  email: string | null;
  phone: string | null;
  origin: string | null;
  status: 'active' | 'inactive' | 'pending';
  auth_type: string;
  client_type: string;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

export interface PackagesTable {
  id: string;
  type: string;
  /** JSON array of feature names. */
  features: string;
  created_at: IsoTimestamp;
}

export interface SubscriptionsTable {
  id: string;
  client_id: string;
  package_id: string;
  max_users: number;
  fair_use: number;
  start_date: IsoTimestamp;
  expire_date: IsoTimestamp;
  created_at: IsoTimestamp;
}

export interface DepartmentsTable {
  id: string;
  client_id: string;
  name: string;
  created_at: IsoTimestamp;
}

export interface UnitsTable {
  id: string;
  department_id: string;
  name: string;
}

export interface UsersTable {
  id: string;
  /** Null for the platform-level superuser. */
  client_id: string | null;
  name: string;
  /** Always stored lower-cased, so the unique index is case-insensitive. */
  email: string;
  password_hash: string | null;
  role: 'superuser' | 'admin' | 'user';
  status: 'active' | 'inactive';
  verified: IntBool;
  image_url: string | null;
  department_id: string | null;
  unit_id: string | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
  /**
   * Raised whenever this person's existing access tokens must stop working at once (new password, deactivation,
   * role change); every access token carries the value it was signed with (migration 2026-11-27-03).
   */
  session_version: number;
  /** The person's colour theme (migration 2026-11-28-03): 'system' follows the device. */
  theme: ColumnType<'system' | 'light' | 'dark', 'system' | 'light' | 'dark' | undefined, 'system' | 'light' | 'dark'>;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: IsoTimestamp;
  expires_at: IsoTimestamp;
  used_at: IsoTimestamp | null;
  revoked_at: IsoTimestamp | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: IsoTimestamp;
  used_at: IsoTimestamp | null;
  created_at: IsoTimestamp;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  window_start: IsoTimestamp;
}

export interface ConversationsTable {
  id: string;
  user_id: string;
  /** The owner's organisation when the conversation began (null for the superuser); reports group by it. */
  client_id: string | null;
  title: string;
  /**
   * A lease: while in the future, a reply is being written and another send answers 409. Kept in the
   * database so every instance sees it; a crashed instance's lease simply runs out.
   */
  answering_until: IsoTimestamp | null;
  /**
   * Who holds the answering lease (migration 2026-11-23-03): "<host>/<pid>/<instance>/<lease>", see
   * services/reply-leases.ts. Null when no reply is being written.
   */
  answering_owner: string | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  /** The conversation's owner, on the assistant's messages too (search filters by it without a join). */
  user_id: string;
  sender: 'user' | 'Assistant';
  content: string;
  status: 'complete' | 'streaming' | 'error';
  /** 1, 2, 3... within a conversation: the order, independent of equal timestamps. */
  seq: number;
  created_at: IsoTimestamp;
  /** When the person stopped this reply (migration 2026-11-23-06); null for every other message. */
  stopped_at: ColumnType<IsoTimestamp | null, IsoTimestamp | null | undefined, IsoTimestamp | null>;
  /**
   * The content's length in characters (code points, as SQL's length() counts them), set by every writer of
   * `content` (migration 2026-11-27-02): the history read is cut by size from an index, without reading the texts.
   */
  content_length: number;
}

/** One row per model call (replies and titles): the ledger the usage dashboard and reports read. */
export interface UsageLogsTable {
  id: string;
  user_id: string;
  client_id: string | null;
  department_id: string | null;
  unit_id: string | null;
  conversation_id: string | null;
  message_id: string | null;
  purpose: 'reply' | 'title';
  provider: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  duration_ms: number;
  created_at: IsoTimestamp;
}

/** One read-only link per conversation (migration 2026-11-23-05); `id` is the unguessable part of its URL. */
export interface SharesTable {
  id: string;
  conversation_id: string;
  /** The conversation's title when the snapshot was taken. */
  title: string;
  created_at: IsoTimestamp;
  snapshot_at: IsoTimestamp;
}

/** A share's copy of the conversation's complete messages as they were when it was (last) shared. */
export interface SharedMessagesTable {
  share_id: string;
  /** The message's seq in the conversation then: the order. */
  seq: number;
  message_id: string;
  sender: 'user' | 'Assistant';
  content: string;
  created_at: IsoTimestamp;
}

export interface PromptLibraryTable {
  id: string;
  user_id: string;
  prompt: string;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** A prompt's tags in their order; `tag_key` is the tag lower-cased by the application (see shared/tags.ts). */
export interface PromptLibraryTagsTable {
  prompt_id: string;
  position: number;
  tag: string;
  tag_key: string;
}

/** Product content, global (not per organisation); `id` is the stable slug of server/db/tips-content.ts. */
export interface TipsTable {
  id: string;
  position: number;
  title: string;
  duration: string;
  level: 'beginner' | 'intermediate' | 'advanced';
  persona: string;
  /** Markdown. */
  content: string;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

export interface TipTagsTable {
  tip_id: string;
  position: number;
  tag: string;
  tag_key: string;
}

export interface FeedbackSubmissionsTable {
  id: string;
  user_id: string;
  client_id: string | null;
  type: 'feedback' | 'report';
  /** Null for reports. */
  level: 'POOR' | 'BELOW_AVERAGE' | 'AVERAGE' | 'GOOD' | 'EXCELLENT' | null;
  description: string | null;
  created_at: IsoTimestamp;
}

/** Thumbs up / down on an assistant's reply, one per person per reply (migration 2026-11-28-02). */
export interface ReplyRatingsTable {
  id: string;
  message_id: string;
  user_id: string;
  /** The person's organisation when they rated; null for a superuser. */
  client_id: string | null;
  rating: 'up' | 'down';
  comment: string | null;
  rated_at: IsoTimestamp;
}

/** An account activation link (migration 2026-11-24-03): only the code's SHA-256 hash is stored. */
export interface ActivationsTable {
  id: string;
  user_id: string;
  code_hash: string;
  expires_at: IsoTimestamp;
  used_at: IsoTimestamp | null;
  created_at: IsoTimestamp;
}

/** The latest usage dashboard of an organisation (migration 2026-11-24-04); `data` is the Dashboard as JSON. */
export interface DashboardSnapshotsTable {
  client_id: string;
  data: string;
  generated_at: IsoTimestamp;
}

/** An organisation's policy prompt (a row only while it has one). */
export interface GlobalPoliciesTable {
  client_id: string;
  policy_prompt: string;
  updated_by: string | null;
  updated_at: IsoTimestamp;
}

/** A file attached to a conversation (migration 2026-11-24-05): uploaded, or made by the image tool. */
export interface DocumentsTable {
  id: string;
  user_id: string;
  client_id: string | null;
  department_id: string | null;
  unit_id: string | null;
  /** Null while attached on the new-chat screen, until the first message creates the conversation. */
  conversation_id: string | null;
  filename: string;
  /** One of ACCEPTED_EXTENSIONS (contract/documents-constants.ts), lower case with the dot. */
  extension: string;
  mime: string;
  size: number;
  origin: 'upload' | 'generated';
  storage_key: string;
  file_key: string;
  status: 'queued' | 'chunking' | 'embedding' | 'saving' | 'ready' | 'failed';
  note: string | null;
  error: string | null;
  chunk_count: ColumnType<number, number | undefined, number>;
  /** The user message that carried it (sent in its document_ids); null until sent, and for generated files. */
  message_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** A passage of a document's text; full-text indexed (FTS5 / tsvector). */
export interface DocumentChunksTable {
  rid: Generated<number>;
  document_id: string;
  seq: number;
  content: string;
  place: string | null;
  /** SQLite: float32 little-endian blob (sqlite-vec's format); PostgreSQL: real[]; null without embeddings. */
  embedding: Buffer | number[] | null;
}

/** Background work: a named job with a JSON payload, claimed through its lease (server/platform/jobs/). */
export interface JobsTable {
  id: string;
  name: string;
  /** JSON text. */
  payload: string;
  /** Deduplicates enqueues: one job per key (one ingestion per document, one row per repeating job). */
  key: string | null;
  status: 'queued' | 'running' | 'failed';
  attempts: number;
  max_attempts: number;
  run_after: IsoTimestamp;
  leased_until: IsoTimestamp | null;
  /** The process holding the lease (server/platform/jobs/sql-queue.ts names it). */
  leased_by: string | null;
  last_error: string | null;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** A client's OAuth sign-in settings (migration 2026-11-30-02); the secret only sealed (server/lib/secret-box.ts). */
export interface OAuthConfigsTable {
  id: string;
  client_id: string;
  provider: 'microsoft' | 'google';
  tenant_id: string | null;
  provider_client_id: string;
  secret_sealed: string;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** The superuser's system prompts (migration 2026-11-30-02): at most one active per scope (everyone's, a client's). */
export interface SystemPromptsTable {
  id: string;
  name: string;
  content: string;
  client_id: string | null;
  is_active: IntBool;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

/** The landing page's contact form leads (migration 2026-12-01-01), read by the superuser. */
export interface ContactLeadsTable {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  hear_about_us: string;
  ip: string;
  created_at: IsoTimestamp;
}

/** A premium client's directory for LDAP sign-in (migration 2026-12-01-01); the service secret only sealed. */
export interface ClientLdapSettingsTable {
  client_id: string;
  url: string;
  bind_dn_template: string | null;
  search_base: string | null;
  search_filter: string | null;
  service_bind_dn: string | null;
  service_secret_sealed: string | null;
  tls_reject_unauthorized: IntBool;
  created_at: IsoTimestamp;
  updated_at: IsoTimestamp;
}

export interface Database {
  clients: ClientsTable;
  packages: PackagesTable;
  subscriptions: SubscriptionsTable;
  departments: DepartmentsTable;
  units: UnitsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  usage_logs: UsageLogsTable;
  shares: SharesTable;
  shared_messages: SharedMessagesTable;
  prompt_library: PromptLibraryTable;
  prompt_library_tags: PromptLibraryTagsTable;
  tips: TipsTable;
  tip_tags: TipTagsTable;
  feedback_submissions: FeedbackSubmissionsTable;
  reply_ratings: ReplyRatingsTable;
  global_policies: GlobalPoliciesTable;
  dashboard_snapshots: DashboardSnapshotsTable;
  activations: ActivationsTable;
  documents: DocumentsTable;
  document_chunks: DocumentChunksTable;
  jobs: JobsTable;
  oauth_configs: OAuthConfigsTable;
  system_prompts: SystemPromptsTable;
  contact_leads: ContactLeadsTable;
  client_ldap_settings: ClientLdapSettingsTable;
}
