import type { LedgerKind } from '../core/accounts/ledger.js';
import type { ChargeState, DispatchState } from '../core/messages/message.js';

/**
 * Table shapes as the store holds them. Timestamps are integer milliseconds since the epoch
 * (both dialects sort and compare them alike); money is integer micro-credits.
 */
export interface AccountsTable {
  id: string;
  name: string;
  email: string;
  plan: string;
  /** Space-separated scopes the account's clients may be granted. */
  scopes: string;
  credits_micros: number;
  reserved_micros: number;
  created_at: number;
  /** When the operator suspended the account; null while active. */
  suspended_at: number | null;
}

/** Messages ever accepted, per account and channel: the total of an unfiltered list. */
export interface AccountMessageCountsTable {
  account_id: string;
  channel: string;
  messages: number;
}

export interface ApiClientsTable {
  client_id: string;
  account_id: string;
  name: string;
  /** Space-separated scopes the client may be granted (within the account's); null: all of the account's. */
  scopes: string | null;
  /** Hex SHA-256 of the client secret; the secret itself is never stored. */
  secret_hash: string;
  /** The secret a rotation replaced, accepted until previous_secret_until. */
  previous_secret_hash: string | null;
  previous_secret_until: number | null;
  created_at: number;
  secret_rotated_at: number | null;
}

/**
 * Append-only. Each row moves `credits` and `reserved` by its deltas, so an account's balance
 * columns always equal the sums of its rows.
 */
export interface CreditLedgerTable {
  id: string;
  account_id: string;
  kind: LedgerKind;
  credits_delta: number;
  reserved_delta: number;
  message_id: string | null;
  note: string | null;
  created_at: number;
}

export interface MessagesTable {
  id: string;
  account_id: string;
  channel: string;
  recipient: string;
  sender: string | null;
  body: string | null;
  /** Channel-specific request fields as JSON text (template components, email parts, ...). */
  payload: string | null;
  status: string;
  segments: number | null;
  cost_micros: number;
  charge_state: ChargeState;
  callback_url: string | null;
  scheduled_at: number | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  delivered_at: number | null;
  error_code: string | null;
  error_message: string | null;
  provider_message_id: string | null;
  /** How many status transitions the message has had; the sequence of its latest history row. */
  status_sequence: number;
  dispatch_state: DispatchState | null;
  /** Hand-overs to a provider so far. */
  attempts: number;
  batch_id: string | null;
  /** The X-Request-Id of the request that created the message (migration 0017). */
  request_id: string | null;
  /** The W3C traceparent of the message's accept, when traces are on (migration 0017). */
  trace_context: string | null;
  /** Events emitted for the message so far; the sequence of the latest. */
  event_sequence: number;
  /** The route that carried it, for a channel with several (migration 0023, docs/routing.md). */
  route: string | null;
  /** 1: sent to a suppressed recipient on purpose (a STOP's confirmation); null: checked at hand-over too (migration 0026). */
  suppression_exempt: number | null;
}

export interface MessageStatusHistoryTable {
  message_id: string;
  /** 1, 2, 3 ... per message, in the order the transitions happened. */
  sequence: number;
  status: string;
  detail: string | null;
  occurred_at: number;
}

export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  public_jwk: string;
  private_jwk: string;
  created_at: number;
  /** When the key stopped signing; it keeps verifying until its last token has expired. */
  retired_at: number | null;
}

export interface JobsTable {
  id: string;
  kind: string;
  message_id: string | null;
  /** JSON text; its shape depends on `kind` (dispatch/job-catalogue.ts). */
  payload: string | null;
  /** Not claimed before this time (ms). */
  run_at: number;
  /** Due jobs are claimed lowest priority first, then oldest first (JOB_PRIORITY). */
  priority: number;
  attempts: number;
  /** Claims in a row whose handler threw, reset by any ordinary outcome (migration 0015). */
  failures: number;
  /** The worker holding the job, until `locked_until`; after that any worker may reclaim it. */
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
}

export interface IpAllowRulesTable {
  account_id: string;
  cidr: string;
  created_at: number;
  note: string | null;
}

export interface SuppressionsTable {
  account_id: string;
  channel: string;
  recipient: string;
  reason: string;
  source: string;
  note: string | null;
  created_at: number;
}

export interface OperatorsTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

export interface OperatorSessionsTable {
  token_hash: string;
  operator_id: string;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  fingerprint: string;
  /** `released`: its request failed on our side (5xx); the next request with the key takes it. */
  state: 'running' | 'done' | 'released';
  status_code: number | null;
  content_type: string | null;
  body: string | null;
  locked_until: number;
  created_at: number;
  expires_at: number;
}

export interface MessagePartsTable {
  channel: string;
  provider_message_id: string;
  /** The route that carried the message ('' for a provider with no routes): part of the key (migration 0024). */
  route: string;
  message_id: string;
  part: number;
  status: 'delivered' | 'failed' | null;
}

export interface SandboxSubmissionsTable {
  message_id: string;
  channel: string;
  recipient: string;
  attempts: number;
  provider_message_id: string | null;
  accepted_at: number | null;
  /** Submissions of a message the sandbox had already accepted: must stay 0. */
  duplicates: number;
  created_at: number;
}

export interface WhatsappTemplatesTable {
  account_id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  /** JSON text: [{type, text}], the body text holding {{1}}-style parameters. */
  components: string;
  created_at: number;
}

export interface WhatsappInboundTable {
  account_id: string;
  phone: string;
  /** The recipient's last message to the account: the 24 h session window runs from here. */
  last_inbound_at: number;
}

/** A message a recipient sent to an account (migration 0022). */
export interface InboundMessagesTable {
  id: string;
  account_id: string;
  channel: string;
  /** Who wrote: as the channel names recipients (E.164, chat id, address). */
  sender: string;
  /** The account's address it was sent to: its number, bot or email address. */
  recipient: string;
  body: string;
  /** JSON text: what the channel adds (an email's subject, a Telegram username, a WhatsApp message type). */
  payload: string | null;
  provider_message_id: string | null;
  received_at: number;
  created_at: number;
}

/** An address on a channel that belongs to one account: where inbound messages to it go. */
export interface ChannelAddressesTable {
  channel: string;
  address: string;
  account_id: string;
  created_at: number;
}

/** A part of a long inbound SMS, kept until every part has come. */
export interface InboundPartsTable {
  channel: string;
  /** The route (SMSC link) the part came on, `default` for the single link: part of the key (migration 0024). */
  route: string;
  sender: string;
  recipient: string;
  reference: number;
  total: number;
  part: number;
  body: string;
  received_at: number;
}

/** An account's confirmation texts for STOP and START in one language ('' sends none). */
export interface KeywordRepliesTable {
  account_id: string;
  language: string;
  stop_reply: string;
  start_reply: string;
  updated_at: number;
}

export interface EmailEventsTable {
  id: string;
  message_id: string;
  type: string;
  /** JSON text: {user_agent, ip} for opens and clicks, plus {url} for clicks. */
  data: string | null;
  occurred_at: number;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface EventsTable {
  id: string;
  account_id: string;
  message_id: string | null;
  type: string;
  body: string;
  created_at: number;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  events: string;
  description: string | null;
  active: number;
  disabled_reason: string | null;
  failing_since: number | null;
  created_at: number;
  deleted_at: number | null;
}

export interface WebhookSecretsTable {
  account_id: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  rotated_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  event_id: string;
  webhook_id: string | null;
  url: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  created_at: number;
}

/** A person who signs in to the dashboard, in one account, with a role (core/users/user.ts). */
export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  role: string;
  /** scrypt, in the self-describing form of core/users/passwords.ts. */
  password_hash: string;
  /** Base32 TOTP secret once two-step sign-in is on; null otherwise. */
  totp_secret: string | null;
  /** The last TOTP time step a code was accepted for (no code works twice). */
  totp_last_step: number | null;
  created_at: number;
}

/** An invitation to become a user; the link's token is kept only as its SHA-256. */
export interface UserInvitationsTable {
  token_hash: string;
  account_id: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
}

/** A signed-in browser; the cookie's token is kept only as its SHA-256. */
export interface UserSessionsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** A one-time note of a dashboard session (migration 0027): sealed, read once. */
export interface ShownOnceTable {
  id: string;
  session_hash: string;
  sealed: string;
  expires_at: number;
}

/** What was changed in an account, by whom (`usr_...`, `operator`), from where. Append-only. */
export interface AuditLogTable {
  id: string;
  account_id: string;
  actor: string;
  /** The actor's address when the row was written (migration 0028); null for the CLI, a client, or an unknown actor. */
  actor_email: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  at: number;
}

export interface Database {
  accounts: AccountsTable;
  account_message_counts: AccountMessageCountsTable;
  api_clients: ApiClientsTable;
  credit_ledger: CreditLedgerTable;
  messages: MessagesTable;
  message_status_history: MessageStatusHistoryTable;
  message_parts: MessagePartsTable;
  idempotency_keys: IdempotencyKeysTable;
  ip_allow_rules: IpAllowRulesTable;
  operators: OperatorsTable;
  suppressions: SuppressionsTable;
  operator_sessions: OperatorSessionsTable;
  signing_keys: SigningKeysTable;
  jobs: JobsTable;
  sandbox_submissions: SandboxSubmissionsTable;
  whatsapp_templates: WhatsappTemplatesTable;
  whatsapp_inbound: WhatsappInboundTable;
  inbound_messages: InboundMessagesTable;
  channel_addresses: ChannelAddressesTable;
  inbound_parts: InboundPartsTable;
  keyword_replies: KeywordRepliesTable;
  email_events: EmailEventsTable;
  server_secrets: ServerSecretsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  users: UsersTable;
  user_invitations: UserInvitationsTable;
  user_sessions: UserSessionsTable;
  shown_once: ShownOnceTable;
  audit_log: AuditLogTable;
}
