import type { Account, AccountAccess, ApiClient, IpRule } from './accounts/account.js';
import type { LedgerEntry } from './accounts/ledger.js';
import type { ChannelCatalogue } from './channels.js';
import type { NewJob } from './delivery/job-kinds.js';
import type { Channel } from './ids.js';
import type { ChannelAddress, InboundMessage, KeywordReplies } from './inbound/inbound-message.js';
import type { MessageTrail } from './message-trail.js';
import type { ChargeState, Message, MessageStatus, Origin, StatusChange } from './messages/message.js';
import type { Meter } from './meter.js';
import type { Operator, OperatorSession } from './operators/operator.js';
import type { Suppression } from './suppressions/suppression.js';
import type { AuditEntry, Invitation, Role, User, UserSession } from './users/user.js';

/**
 * What the domain needs from the store. storage/ implements it on Kysely for SQLite and
 * PostgreSQL; every method takes effect inside the transaction of the Store it was called on.
 */
export interface Store {
  /** The channels this Herald serves (core/channels.ts): their names, scopes and status hooks. */
  readonly channels: ChannelCatalogue;
  /** What this process counts for its operators (core/meter.ts); counted after commit, by the caller. */
  readonly meter: Meter;
  /** The steps of messages' lives, for operators following one (core/message-trail.ts); told after commit, like the meter. */
  readonly trail: MessageTrail;
  readonly accounts: AccountsPort;
  readonly credits: CreditsPort;
  readonly messages: MessagesPort;
  readonly jobs: JobsPort;
  readonly sandbox: SandboxPort;
  readonly templates: TemplatesPort;
  readonly inbound: InboundPort;
  readonly emailEvents: EmailEventsPort;
  readonly secrets: SecretsPort;
  readonly signingKeys: SigningKeysPort;
  readonly webhooks: WebhooksPort;
  readonly idempotency: IdempotencyPort;
  /** Dashboard users, their invitations and sessions, and each account's audit log (core/users/). */
  readonly users: UsersPort;
  /** The operator's people, who sign in to the operator pages, and their sessions (core/operators/). */
  readonly operators: OperatorsPort;
  /** Each account's suppression list (core/suppressions/). */
  readonly suppressions: SuppressionsPort;
  /**
   * Runs `work` in one transaction: all of its writes commit together or none do. Calling it on a
   * Store that is already inside a transaction joins that transaction.
   */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Like `transaction`, for a short unit of writes that stands alone (one request's accept): it may
   * share its commit with concurrent units (group commit), each isolated by a savepoint, so a unit
   * that throws takes nothing with it and affects no other. Resolves once its writes are durable.
   * Inside a transaction it joins that transaction, like `transaction`.
   */
  groupedTransaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Whether concurrent units may share a commit at all (the operator's GROUP_COMMIT): where they
   * may, requests to accept messages are also written together (core/messages/accept-queue.ts).
   */
  readonly sharesCommits: boolean;
}

/** A response stored under an idempotency key, replayed to retries. */
export interface StoredResponse {
  statusCode: number;
  contentType: string | null;
  body: string;
}

export type IdempotencyClaim =
  /**
   * The key is new (or its earlier claim lapsed): the caller runs the request. `lease` names this
   * claim (it is the time the claim lapses, in ms): a write under the key succeeds only while the
   * claim is still this one, so a request taken over after its claim lapsed cannot also finish.
   */
  | { kind: 'claimed'; lease: number }
  /** The request ran: replay this. */
  | { kind: 'replay'; response: StoredResponse }
  /** The first request with the key is still running. */
  | { kind: 'in_use' }
  /** The key was used for a different request. */
  | { kind: 'mismatch' };

export interface IdempotencyPort {
  /** Claims `key` for a request with `fingerprint`, or says what became of it. Call it in a transaction. */
  claim(input: {
    accountId: string;
    key: string;
    fingerprint: string;
    now: number;
    lockMs: number;
    ttlMs: number;
  }): Promise<IdempotencyClaim>;
  /**
   * Stores the response of the claim `lease` names, to replay until the key expires. False (and
   * nothing written) when the key holds another claim or an answer already: the claim lapsed and a
   * retry took the key over.
   */
  complete(accountId: string, key: string, lease: number, response: StoredResponse): Promise<boolean>;
  /** Forgets the claim `lease` names, whose request failed on our side (5xx), so a retry runs it again. */
  release(accountId: string, key: string, lease: number): Promise<void>;
  /** Deletes keys past their expiry; returns how many. */
  deleteExpired(now: number, limit: number): Promise<number>;
}

/**
 * The answer of a request made with an Idempotency-Key, kept by the use case in the same
 * transaction as what the request creates: after a crash at any moment, a retry finds either
 * nothing (and runs) or what was created together with its answer (and replays it), never the one
 * without the other.
 */
export interface KeptAnswer<R> {
  /**
   * Stores the answer to `result` under the request's key, in `tx`. Throws IDEMPOTENCY_KEY_IN_USE,
   * to roll the transaction back, when the request no longer holds the key (it ran past its claim
   * and a retry took the key over).
   */
  keep(tx: Store, result: R): Promise<void>;
}

/** The same answer kept for a result the caller derives from its own (one message of a list, say). */
export function keptFor<R, S>(answer: KeptAnswer<S> | undefined, from: (result: R) => S): KeptAnswer<R> | undefined {
  return answer && { keep: (tx, result) => answer.keep(tx, from(result)) };
}

export interface NewAccount {
  account: Omit<Account, 'creditsMicros' | 'reservedMicros' | 'suspendedAt'>;
  client: ApiClient;
}

export interface AccountsPort {
  insertAccountWithClient(input: NewAccount): Promise<void>;
  findAccount(accountId: string): Promise<Account | undefined>;
  /** The account named by its account id or by the client id of one of its clients. */
  findAccountByReference(reference: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  countAccounts(): Promise<number>;
  /** Suspends (a time) or reinstates (null) the account; whether that changed anything. Announced as an access change. */
  setSuspended(accountId: string, at: number | null): Promise<boolean>;
  /** Moves the account to another plan; whether it exists. Announced as an access change (rate limits follow it). */
  setPlan(accountId: string, plan: string): Promise<boolean>;
  findClient(clientId: string): Promise<ApiClient | undefined>;
  /** The account's clients, oldest first. */
  listClients(accountId: string): Promise<ApiClient[]>;
  /** Adds a client to an account. Announced as an access change. */
  insertClient(client: ApiClient): Promise<void>;
  /** Removes a client (revoked: its secret and its tokens stop working); whether the account had it. Announced. */
  deleteClient(accountId: string, clientId: string): Promise<boolean>;
  /**
   * Gives the client a new secret; the one it replaces is kept as the previous secret until
   * `previousUntil` (null: it stops working now). With `expectedHash`, only if that is still its
   * secret. Whether it was replaced.
   */
  replaceClientSecret(
    clientId: string,
    secretHash: string,
    rotatedAt: number,
    previousUntil?: number | null,
    expectedHash?: string,
  ): Promise<boolean>;
  /** What every authenticated request of the account is checked against (suspension, allow-list, clients). */
  access(accountId: string): Promise<AccountAccess>;
  /** The account's IP allow-list (canonical CIDRs, oldest first); empty allows every address. */
  ipRules(accountId: string): Promise<string[]>;
  /** The allow-list with each entry's note, oldest first. */
  listIpRules(accountId: string): Promise<IpRule[]>;
  /** Adds a rule; false when the account already has it. */
  addIpRule(accountId: string, cidr: string, at: number, note?: string | null): Promise<boolean>;
  /** Removes a rule; false when the account did not have it. */
  removeIpRule(accountId: string, cidr: string): Promise<boolean>;
}

export interface CreditsPort {
  /** Adds credits to the balance (a top-up row in the ledger). */
  topUp(accountId: string, micros: number, at: number, note: string | null): Promise<void>;
  /**
   * Holds `micros` for a message if the available balance covers it, atomically with respect to
   * every other reservation. Returns false, and changes nothing, when it does not.
   */
  reserve(accountId: string, micros: number, messageId: string, at: number): Promise<boolean>;
  /**
   * Holds the cost of several messages at once, all or none: one balance check for the total,
   * one ledger row per message (so each can later be captured or released on its own). `counts`
   * adds new messages to the account's per-channel message counters in the same update, so an
   * accepted send writes the account row once.
   */
  reserveMany(
    accountId: string,
    holds: ReadonlyArray<{ messageId: string; micros: number }>,
    at: number,
    counts?: Partial<Record<Channel, number>>,
  ): Promise<boolean>;
  /**
   * Locks these accounts' rows until the transaction ends, in one order (PostgreSQL; SQLite's single
   * writer needs none), so a transaction that moves several accounts' credits takes them all up front.
   */
  lockAccounts(accountIds: readonly string[]): Promise<void>;
  /** Turns a reservation into a charge (a provider accepted the message). */
  capture(accountId: string, micros: number, messageId: string, at: number): Promise<void>;
  /** `capture` for many messages: one balance update per account, one ledger row per message. */
  captureMany(captures: ReadonlyArray<{ accountId: string; micros: number; messageId: string; at: number }>): Promise<void>;
  /** Gives a reservation back (failure before acceptance, or cancel). */
  release(accountId: string, micros: number, messageId: string, at: number): Promise<void>;
  /** Gives a captured charge back (the provider did not bill the message after all): credits rise by `micros`. */
  refund(accountId: string, micros: number, messageId: string, at: number): Promise<void>;
  /** Every movement of the account, oldest first. */
  ledger(accountId: string): Promise<LedgerEntry[]>;
  /** Up to `limit` movements, newest first, strictly before the `before` entry (its time and id) when given. */
  ledgerPage(query: { accountId: string; before?: { at: number; id: string } | undefined; limit: number }): Promise<LedgerEntry[]>;
}

export interface MessagesPort {
  /**
   * Inserts new messages in status `queued`, each with the first entry of its status history. The
   * account's message counters are the caller's to move (`credits.reserveMany` does it with the hold).
   */
  insertQueued(messages: ReadonlyArray<{ message: Message; payload: string | null; suppressionExempt?: boolean }>): Promise<void>;
  /** Messages of one account, newest first (created_at, then id), filtered, with the total count. */
  list(query: MessageListQuery): Promise<{ messages: Message[]; total: number }>;
  /**
   * What became of an account's messages (every channel), period by period: those created in each,
   * by status now, and the failed ones' reasons. Read from indexes only: one range of
   * (account, status, created_at) per status and period, and the index of failed messages
   * (migration 0020); the table itself is not read.
   */
  activityByPeriod(query: MessageActivityQuery): Promise<MessageActivity>;
  /** The message if it belongs to the account; another account's message is not found. */
  findForAccount(messageId: string, accountId: string): Promise<Message | undefined>;
  /**
   * The account's messages of a channel still `queued` for a recipient (its key; `caseless`: the
   * stored recipient compared lower-cased), oldest first, at most `limit`: what a new suppression
   * stops before it is sent (a STOP's confirmation, exempt, is not among them).
   */
  queuedTo(accountId: string, channel: Channel, recipient: string, caseless: boolean, limit: number): Promise<Message[]>;
  statusHistory(messageId: string): Promise<StatusChange[]>;
  /** The histories of several messages in one query, keyed by message id. */
  statusHistories(messageIds: readonly string[]): Promise<Map<string, StatusChange[]>>;
  findById(messageId: string): Promise<Message | undefined>;
  findByProviderId(channel: Channel, providerMessageId: string): Promise<Message | undefined>;
  /**
   * The message a provider's id belongs to, trying each form of the id in turn: the id of the
   * message itself, or of one of its parts (then `part` says which). With `route` (the route a
   * receipt came on), only a message or part that route carried (core/delivery/provider.ts, receiptRoutes).
   */
  findByProviderIds(channel: Channel, ids: readonly string[], route?: string): Promise<{ message: Message; part?: PartKey } | undefined>;
  /**
   * `findByProviderIds` for many receipts of one route (or none) in two queries: for each group of
   * id forms, the id of the message it names as a whole (the newest with one of the forms), `part`
   * when a form names a part of a message (that path needs the part: findByProviderIds), or
   * undefined when none matches.
   */
  messageIdsByProviderIds(
    channel: Channel,
    idGroups: ReadonlyArray<readonly string[]>,
    route?: string,
  ): Promise<Array<string | 'part' | undefined>>;
  /** Remembers the provider's id of each part of a multi-part message, in order, under the route that carried it. */
  recordParts(messageId: string, channel: Channel, providerMessageIds: readonly string[], route?: string): Promise<void>;
  /** Records a part's final state; returns how many parts of its message are not delivered yet. */
  settlePart(channel: Channel, part: PartKey, status: 'delivered' | 'failed'): Promise<{ undelivered: number }>;
  /** Accounts that have sent a WhatsApp message to this number, the latest to write first (read through an index of WhatsApp messages only). */
  whatsAppAccountsWriting(recipient: string): Promise<string[]>;
  /** The stored channel-specific fields of a message (JSON), if any. */
  payload(messageId: string): Promise<string | null>;
  /**
   * Moves a message to `to` if its status is one of `from`, appending a history entry; returns
   * false, changing nothing, when the status was not one of them.
   */
  transition(change: Transition): Promise<boolean>;
  /**
   * `transition` for many messages in one statement (and one for their history rows), each move
   * as conditional as a single one. Returns the messages that moved, as they are after it (what
   * the status machine needs of them), with the number their next event takes when `countEvent`
   * is set (the counter advances in the same update).
   */
  transitionMany(
    changes: readonly Transition[],
    options: { countEvent: boolean },
  ): Promise<Map<string, { message: MovedMessage; eventSequence: number }>>;
  /**
   * Takes queued messages for a hand-over (attempts + 1) and returns them as they were before, so
   * the caller sees which were already in flight. They become `in_flight`, except those of
   * `claimOnly` channels, which become `claimed` (taken, not yet handed over: `markHandedOver`
   * follows right before each leaves the process). A message already `in_flight` stays so: it
   * may be at the provider whatever happens next. `noWait`: a message another transaction holds
   * (PostgreSQL: a cancel under way) fails the call at once instead of waiting for it.
   */
  markInFlight(messageIds: readonly string[], options?: { claimOnly?: readonly Channel[]; noWait?: boolean }): Promise<InFlightMessage[]>;
  /**
   * Moves claimed messages to `in_flight`, each only if it is still queued, `claimed`, and at the
   * attempt its claim gave it (`attempts`, a fence: another worker that took the job over since
   * has claimed it again). Returns the ids that moved.
   */
  markHandedOver(claims: ReadonlyArray<{ messageId: string; attempts: number }>): Promise<Set<string>>;
  /** Several messages by id, in one query. */
  findByIds(messageIds: readonly string[]): Promise<Message[]>;
  /**
   * Clears `in_flight` or `claimed` after a provider definitely did not take the message, if the
   * message is still at `attempts` (the attempt its claim gave it): a worker that lost its job to
   * another, which has claimed the message again since, must not clear the other's mark.
   */
  clearInFlight(messageId: string, attempts: number): Promise<void>;
  /**
   * Why queued messages wait: the error of the attempt that put each back, shown as its `error`
   * until it is sent (the acceptance clears it) or fails (its own error replaces it).
   */
  noteWaiting(notes: ReadonlyArray<{ messageId: string; error: { code: string; message: string } }>): Promise<void>;
}

/**
 * What the status machine needs of a message it moved in bulk: whom to tell (webhooks, the
 * callback URL, the email timeline) and what to charge. Reading back whole rows (bodies and all)
 * for thousands of messages a second cost more than the updates themselves.
 */
export type MovedMessage = Pick<
  Message,
  'id' | 'accountId' | 'channel' | 'to' | 'callbackUrl' | 'status' | 'costMicros' | 'sentAt' | 'deliveredAt' | 'requestId' | 'traceContext'
>;

/** A message as a worker takes it for a hand-over: with its channel-specific fields. */
export interface InFlightMessage {
  message: Message;
  payload: string | null;
  /** Sent to a suppressed recipient on purpose (a STOP's confirmation): the hand-over does not check the list. */
  suppressionExempt: boolean;
}

export interface MessageListQuery {
  accountId: string;
  /** Only these channels (the ones the caller may read). */
  channels: readonly Channel[];
  status?: MessageStatus | undefined;
  /** created_at >= from (ms), inclusive. */
  from?: number | undefined;
  /** created_at < to (ms), exclusive. */
  to?: number | undefined;
  limit: number;
  offset: number;
}

/** An account's messages over a span cut into periods of one length (a UTC day or hour, say). */
export interface MessageActivityQuery {
  accountId: string;
  /** The first period's start (ms, inclusive). */
  from: number;
  /** The last period's end (ms, exclusive): `from` plus a whole number of periods, at most 1,000. */
  to: number;
  periodMs: number;
  /** How many failure reasons to give, the most frequent, per period and for the span. */
  topReasons: number;
}

/** A reason failed messages gave (their error code; null when a message failed without one), and how many gave it. */
export interface FailureReasonCount {
  code: string | null;
  count: number;
}

/** The messages created in one period, by what became of them. */
export interface MessageActivityPeriod {
  /** The period's start (ms); it ends where the next begins. */
  start: number;
  created: number;
  byStatus: Record<MessageStatus, number>;
  /** Delivered or read: reached the recipient. */
  delivered: number;
  failed: number;
  /** The failed ones' most frequent reasons, most first (ties by code). */
  failureReasons: FailureReasonCount[];
}

export interface MessageActivity {
  /** Every period of the query, in order, those without messages too. */
  periods: MessageActivityPeriod[];
  /** The span's most frequent failure reasons, most first (ties by code). */
  failureReasons: FailureReasonCount[];
}

export interface Transition {
  messageId: string;
  from: readonly MessageStatus[];
  to: MessageStatus;
  at: number;
  detail: string | null;
  sentAt?: number;
  deliveredAt?: number;
  providerMessageId?: string;
  /** The route that carried the message (null: none named), written with its provider id. */
  route?: string | null;
  chargeState?: ChargeState;
  /** Set as the message's error; null clears it (an acceptance clears why the message waited). */
  error?: { code: string; message: string } | null;
  clearInFlight?: boolean;
  /** Only when no worker has taken the message for a hand-over (`claimed` or `in_flight`). */
  requireNotInFlight?: boolean;
}

export type { NewJob };

export interface ClaimedJob {
  id: string;
  kind: string;
  messageId: string | null;
  payload: unknown;
  runAt: number;
  /** Claims so far, this one included. */
  attempts: number;
  /** Earlier claims in a row whose handler threw (not this one's). */
  failures: number;
  createdAt: number;
}

export interface JobBacklog {
  kind: string;
  jobs: number;
  due: number;
  held: number;
  /** run_at of the oldest due job (ms); undefined when none is due. */
  oldestDueAt: number | undefined;
}

export interface JobsPort {
  /** Adds a job; it becomes claimable at `runAt`. Other processes are woken where the store can. */
  enqueue(job: NewJob, at: number): Promise<string>;
  enqueueMany(jobs: readonly NewJob[], at: number): Promise<void>;
  /**
   * Leases up to `limit` due jobs to `workerId` until `now + leaseMs`. Jobs whose lease ran out
   * (their worker died) are due again. Never hands one job to two workers at once.
   */
  claimDue(workerId: string, now: number, leaseMs: number, limit: number): Promise<ClaimedJob[]>;
  /** Removes a finished job, if this worker still holds it. */
  complete(jobId: string, workerId: string): Promise<void>;
  /** Removes finished jobs this worker still holds, in one statement; returns the ids it removed. */
  completeMany(jobIds: readonly string[], workerId: string): Promise<string[]>;
  /** Puts a job back to run again at `runAt`. */
  reschedule(jobId: string, workerId: string, runAt: number, error: string | null): Promise<void>;
  /** `reschedule` for several jobs going back with the same time and error, in one statement. */
  rescheduleMany(jobIds: readonly string[], workerId: string, runAt: number, error: string | null): Promise<void>;
  /** Puts back jobs whose handler threw, counting one more failure in a row (`reschedule` resets the count). */
  rescheduleFailed(jobIds: readonly string[], workerId: string, runAt: number, error: string): Promise<void>;
  /**
   * Removes jobs given up on that this worker still holds under the same claim (`attempts` as the
   * claim read it: a job it lost and claimed again is not the one it gives up); the ids it removed.
   */
  drop(claims: ReadonlyArray<{ id: string; attempts: number }>, workerId: string): Promise<string[]>;
  /** Gives back every job this worker holds (on shutdown), claimable again at once. */
  releaseAll(workerId: string): Promise<number>;
  /**
   * Extends to `until` the leases of `jobIds` that `workerId` still holds (its heartbeat, for the
   * jobs it is still working on), so a lease ends soon after its holder stops renewing it rather
   * than a fixed time after the claim. Returns how many.
   */
  renewLeases(workerId: string, jobIds: readonly string[], until: number): Promise<number>;
  /** When the next job becomes due (or its lease runs out), if there is one. */
  nextDueAt(now: number): Promise<number | undefined>;
  /** Removes the job of a message, if it has one. */
  deleteForMessage(messageId: string): Promise<void>;
  count(): Promise<number>;
  /**
   * The queue by kind, for operators (/metrics): jobs stored, how many of them are due (run_at
   * passed), held by a worker now, and when the oldest due one became due.
   */
  backlog(now: number): Promise<JobBacklog[]>;
}

/** What the embedded sandbox carrier remembers of each message it was handed. */
export interface SandboxSubmission {
  messageId: string;
  channel: Channel;
  recipient: string;
  /** Hand-overs received for this message, accepted or not. */
  attempts: number;
  providerMessageId: string | null;
  acceptedAt: number | null;
  /** Hand-overs of a message already accepted; anything but 0 means a double dispatch. */
  duplicates: number;
}

export interface SandboxPort {
  find(messageId: string): Promise<SandboxSubmission | undefined>;
  /** The records of several messages, keyed by message id. */
  findMany(messageIds: readonly string[]): Promise<Map<string, SandboxSubmission>>;
  /**
   * Counts one more hand-over of each message, accepted (with its provider id) or not, in one
   * statement per kind; the caller has read the records first (`findMany`) and decided.
   */
  recordAttempts(
    attempts: ReadonlyArray<{ messageId: string; channel: Channel; recipient: string; providerMessageId: string | null }>,
    at: number,
  ): Promise<void>;
  recordDuplicate(messageId: string): Promise<void>;
  /** Totals for tests and operators: accepted submissions and duplicate hand-overs. */
  totals(): Promise<{ accepted: number; duplicates: number }>;
}

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;

/** A WhatsApp message template (docs/whatsapp.md); its body text holds `{{1}}`-style parameters. */
export interface WhatsappTemplate {
  accountId: string;
  name: string;
  /** Language code, e.g. `en_US`. */
  language: string;
  category: (typeof TEMPLATE_CATEGORIES)[number];
  status: (typeof TEMPLATE_STATUSES)[number];
  components: TemplateComponentRecord[];
  createdAt: number;
}

/**
 * One part of a template: `header`, `body`, `footer` or `button`, with its text (a button's label;
 * '' for a media header). A header may name its `format` (TEXT when absent; IMAGE, VIDEO or
 * DOCUMENT take a file at send time); a button names its `sub_type` and, by kind, the `url` it
 * opens (which may end in `{{1}}`), the `phone_number` it calls or the `example` code it copies.
 */
export interface TemplateComponentRecord {
  type: string;
  text: string;
  format?: string;
  sub_type?: string;
  url?: string;
  phone_number?: string;
  example?: string;
}

export interface TemplatesPort {
  /** Adds a template, or replaces the one with the same account, name and language. */
  upsert(template: WhatsappTemplate): Promise<void>;
  list(accountId: string): Promise<WhatsappTemplate[]>;
  /** Every language version of a template name. */
  findByName(accountId: string, name: string): Promise<WhatsappTemplate[]>;
  remove(accountId: string, name: string, language: string): Promise<boolean>;
}

/** Messages recipients send to accounts (core/inbound/), and what leads them to their account. */
export interface InboundPort {
  /** WhatsApp: when a recipient last wrote to an account; the 24 h session window runs from here. */
  recordInbound(accountId: string, phone: string, at: number): Promise<void>;
  lastInboundAt(accountId: string, phone: string): Promise<number | undefined>;
  /** Stores a received message; false (nothing written) when the account already has one with its provider id. */
  insertMessage(message: InboundMessage): Promise<boolean>;
  findForAccount(id: string, accountId: string): Promise<InboundMessage | undefined>;
  /** The account's received messages of these channels, newest first, with how many match. */
  list(query: {
    accountId: string;
    channels: readonly Channel[];
    from?: number | undefined;
    to?: number | undefined;
    limit: number;
    offset: number;
  }): Promise<{ messages: InboundMessage[]; total: number }>;
  /** The account an address of the channel belongs to, trying each of `forms` (as written) in turn. */
  accountOfAddress(channel: Channel, forms: readonly string[]): Promise<string | undefined>;
  /** Gives an address to an account; false when it already belongs to one (that one or another). */
  insertAddress(address: ChannelAddress): Promise<boolean>;
  removeAddress(channel: Channel, address: string): Promise<boolean>;
  /** Every address, or one account's, by channel then address. */
  listAddresses(accountId?: string): Promise<ChannelAddress[]>;
  /**
   * Keeps one part of a long message and answers the texts of all its parts, in order, once every
   * part has come; undefined while some are missing. A part sent twice is kept once. The parts stay
   * until `removeParts`, in the transaction that stores the joined message.
   */
  addPart(part: InboundPart): Promise<string[] | undefined>;
  /** Removes the parts of one long message; how many there were (0: another took them first). */
  removeParts(channel: Channel, key: { from: string; to: string; reference: number; route?: string | undefined }): Promise<number>;
  keywordReplies(accountId: string): Promise<KeywordReplies[]>;
  setKeywordReplies(accountId: string, replies: KeywordReplies, at: number): Promise<void>;
}

/**
 * A part of a multi-part message as recorded (`recordParts`): the provider's id of it and the route
 * that carried it (null: a provider with no routes). Two routes' SMSCs may give parts the same id.
 */
export interface PartKey {
  providerMessageId: string;
  route: string | null;
}

/** One part of a long inbound message (an SMS in several segments). */
export interface InboundPart {
  channel: Channel;
  /**
   * The route (SMSC link) it came on: parts join only with parts of the same route, as two SMSCs
   * may pass on two messages with the same sender, number and reference. Without one: DEFAULT_ROUTE.
   */
  route?: string | undefined;
  from: string;
  to: string;
  /** The sender's reference shared by the parts (8 or 16 bits). */
  reference: number;
  total: number;
  /** 1-based. */
  part: number;
  text: string;
  receivedAt: number;
}

export const EMAIL_EVENT_TYPES = ['queued', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'failed'] as const;
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

export interface EmailEvent {
  id: string;
  messageId: string;
  type: EmailEventType;
  occurredAt: number;
  /** `{user_agent, ip}` for opens and clicks, plus `{url}` for clicks. */
  data: Record<string, unknown> | null;
}

export interface EmailEventsPort {
  append(event: EmailEvent): Promise<void>;
  list(messageId: string): Promise<EmailEvent[]>;
}

/** Secrets shared by every node, made once by whichever node needs one first. */
/** A token signing key as stored: its JWKs as JSON text; retired keys verify, only the newest active one signs. */
export interface StoredSigningKey {
  kid: string;
  algorithm: string;
  publicJwk: string;
  privateJwk: string;
  createdAt: number;
  retiredAt: number | null;
}

export interface SigningKeysPort {
  /** The newest key that still signs, if any. */
  findActive(): Promise<StoredSigningKey | undefined>;
  find(kid: string): Promise<StoredSigningKey | undefined>;
  /** Every key, oldest first. */
  list(): Promise<StoredSigningKey[]>;
  insert(key: StoredSigningKey): Promise<void>;
  /** Stops every key except `keepKid` from signing; they keep verifying until their tokens expire. */
  retireAllExcept(keepKid: string, at: number): Promise<void>;
}

export interface SecretsPort {
  /** The secret called `name`; `create` makes its value when there is none yet. */
  getOrCreate(name: string, create: () => string, at: number): Promise<string>;
  /** Records `name` unless it exists; true only for the one caller that recorded it. */
  createIfAbsent(name: string, value: string, at: number): Promise<boolean>;
  /** The value recorded as `name`, undefined when there is none. */
  get(name: string): Promise<string | undefined>;
}

/** An event as stored: its body is what every delivery and replay sends, byte for byte. */
export interface StoredEvent {
  id: string;
  accountId: string;
  messageId: string | null;
  type: string;
  body: string;
  createdAt: number;
}

export interface Webhook {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDelivery {
  id: string;
  accountId: string;
  eventId: string;
  /** Null for a delivery to a message's own callback_url. */
  webhookId: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  createdAt: number;
}

/** A delivery as the delivery log shows it: with the type of the event it carries. */
export interface LoggedDelivery extends WebhookDelivery {
  eventType: string;
}

/** A delivery with what sending it needs. */
export interface DeliveryContext {
  delivery: WebhookDelivery;
  /** Its webhook; undefined for a callback_url delivery, or when the webhook was deleted. */
  webhook: Webhook | undefined;
  event: StoredEvent | undefined;
  /** Where the event's message came from (its request id and trace), to follow it by; absent for an event of no message. */
  origin: Origin | undefined;
  /** The account's signing secrets; undefined until its first delivery makes them (signingSecrets). */
  secrets: WebhookSigningSecrets | undefined;
}

export interface WebhookSigningSecrets {
  secret: string;
  previousSecret: string | null;
  /** Until when the previous secret still signs beside the new one. */
  previousUntil: number | null;
  rotatedAt: number;
}

export interface WebhooksPort {
  insertEvent(event: StoredEvent): Promise<void>;
  insertEvents(events: readonly StoredEvent[]): Promise<void>;
  findEvent(eventId: string): Promise<StoredEvent | undefined>;
  /** The next per-message event number (1, 2, ...), taken atomically. */
  nextEventSequence(messageId: string): Promise<number>;

  create(webhook: Webhook): Promise<void>;
  /** The account's webhooks that are not deleted, oldest first. */
  list(accountId: string): Promise<Webhook[]>;
  find(accountId: string, webhookId: string): Promise<Webhook | undefined>;
  /** Soft-deletes; pending deliveries to it are canceled. False when there was none. */
  delete(accountId: string, webhookId: string, at: number): Promise<boolean>;
  setActive(webhookId: string, active: boolean, reason: string | null): Promise<void>;
  /** Records the outcome of a delivery attempt on the webhook's failure streak. */
  recordAttemptOutcome(webhookId: string, succeeded: boolean, at: number): Promise<Webhook | undefined>;
  /**
   * Whether a delivery to the webhook succeeded at or after `at`: a streak a failure started while
   * a success was on its way is not one (the success clears only a streak it read).
   */
  succeededSince(webhookId: string, at: number): Promise<boolean>;
  /** The account's active webhooks, to fan an event out to (filtering by type is the caller's). */
  active(accountId: string): Promise<Webhook[]>;
  /** `active` for several accounts in one query, keyed by account id (accounts without any are absent). */
  activeForAccounts(accountIds: readonly string[]): Promise<Map<string, Webhook[]>>;

  insertDeliveries(deliveries: readonly WebhookDelivery[]): Promise<void>;
  findDelivery(deliveryId: string): Promise<WebhookDelivery | undefined>;
  /**
   * What sending each of many deliveries needs, read in a few queries (not four per delivery):
   * keyed by delivery id; a delivery that does not exist is absent.
   */
  deliveryContexts(deliveryIds: readonly string[]): Promise<Map<string, DeliveryContext>>;
  /** Ends the failure streaks of these webhooks (a delivery to each succeeded); one statement. */
  clearFailureStreaks(webhookIds: readonly string[]): Promise<void>;
  /** The outcome of one attempt of a delivery: `recordAttempts` for one. */
  updateDelivery(delivery: WebhookDelivery): Promise<void>;
  /** The outcome of an attempt of each delivery (status, attempts, last_* and next attempt), in one statement. */
  recordAttempts(deliveries: readonly WebhookDelivery[]): Promise<void>;
  /** A webhook's delivery log, newest first (created_at, then id), with each event's type. */
  listDeliveries(query: { webhookId: string; status?: DeliveryStatus | undefined; limit: number; offset: number }): Promise<{
    deliveries: LoggedDelivery[];
    total: number;
  }>;
  /**
   * Failed deliveries of a webhook created at or after `since`, oldest first, leaving out those
   * whose event already has a pending or succeeded delivery to the webhook (replayed, or delivered
   * after all): so replaying "failed since" twice does not send an event twice, and a bounded
   * replay can be called again to continue.
   */
  failedSince(webhookId: string, since: number, limit: number): Promise<WebhookDelivery[]>;
  /** The deliveries of a message's events (to webhooks and to its callback_url), newest first, at most `limit`. */
  deliveriesOfMessage(accountId: string, messageId: string, limit: number): Promise<LoggedDelivery[]>;

  /** The account's signing secrets, made on first use. */
  signingSecrets(accountId: string, create: () => string, at: number): Promise<WebhookSigningSecrets>;
  rotateSigningSecret(accountId: string, next: string, at: number, overlapMs: number): Promise<WebhookSigningSecrets>;
}

/** Each account's suppression list (core/suppressions/), keyed by (account, channel, recipient). */
export interface SuppressionsPort {
  /** Adds an entry; false (nothing changed) when the recipient is already on the account's list for the channel. */
  insert(entry: Suppression): Promise<boolean>;
  /** Removes an entry; the one removed, if there was one. */
  remove(accountId: string, channel: Channel, recipient: string): Promise<Suppression | undefined>;
  /** The entries of the account and channel among these recipients (as keyed: ChannelCatalogue.recipientKey). */
  findAmong(accountId: string, channel: Channel, recipients: readonly string[]): Promise<Suppression[]>;
  /**
   * The entries among these (account, channel, recipient) keys, of any accounts and channels, in one
   * statement: what a batch of sends or hand-overs asks.
   */
  findAmongKeys(keys: ReadonlyArray<{ accountId: string; channel: Channel; recipient: string }>): Promise<Suppression[]>;
  /** The account's list, newest first, optionally one channel's, after a cursor (the last entry of the previous page). */
  list(query: {
    accountId: string;
    channel?: Channel | undefined;
    before?: { createdAt: number; channel: Channel; recipient: string } | undefined;
    limit: number;
  }): Promise<Suppression[]>;
}

export interface OperatorsPort {
  insertOperator(operator: Operator, passwordHash: string): Promise<void>;
  findOperator(operatorId: string): Promise<Operator | undefined>;
  /** The operator an address signs in as, with the password hash to check. */
  findOperatorByEmail(email: string): Promise<(Operator & { passwordHash: string }) | undefined>;
  listOperators(): Promise<Operator[]>;
  /** Removes the operator with this address, their sessions first; whether there was one. */
  deleteOperator(email: string): Promise<boolean>;
  insertSession(tokenHash: string, session: OperatorSession): Promise<void>;
  findSession(tokenHash: string): Promise<OperatorSession | undefined>;
  touchSession(tokenHash: string, at: number): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
}

/** Dashboard users (core/users/user.ts). Invitations and sessions are found by the SHA-256 of their token. */
export interface UsersPort {
  insertUser(user: User, passwordHash: string): Promise<void>;
  findUser(userId: string): Promise<User | undefined>;
  /** The user an address signs in as, with the password hash and TOTP secret to check. */
  findUserByEmail(email: string): Promise<(User & { passwordHash: string; totpSecret: string | null }) | undefined>;
  /** The user's TOTP secret, to check a code with; null when two-step sign-in is off. */
  totpSecretOf(userId: string): Promise<string | null>;
  /** Turns two-step sign-in on (a secret) or off (null). */
  setTotpSecret(userId: string, secret: string | null): Promise<void>;
  /** Records that a code of time step `step` was used, if no code of this step or a later one was: whether it was. */
  takeTotpStep(userId: string, step: number): Promise<boolean>;
  listUsers(accountId: string): Promise<User[]>;
  insertInvitation(tokenHash: string, invitation: Invitation): Promise<void>;
  findInvitation(tokenHash: string): Promise<Invitation | undefined>;
  /** Marks the invitation accepted if it still can be (not accepted, not expired at `at`); whether it was. */
  takeInvitation(tokenHash: string, at: number): Promise<boolean>;
  /** Invitations not yet accepted, newest first. */
  listInvitations(accountId: string): Promise<Invitation[]>;
  insertSession(tokenHash: string, session: UserSession): Promise<void>;
  findSession(tokenHash: string): Promise<UserSession | undefined>;
  touchSession(tokenHash: string, at: number): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** The account's sessions still alive at `now` (not expired), most recently seen first, each with the hash that names it. */
  listSessions(accountId: string, now: number): Promise<Array<UserSession & { tokenHash: string }>>;
  /** Ends every session of the user (removed, or signed out everywhere). */
  deleteSessionsOf(userId: string): Promise<void>;
  /**
   * Keeps a sealed note for one session (a user's or an operator's, by its token's hash) until
   * `note.expiresAt` (core/users/shown-once.ts); notes whose time passed by `now` are removed on the way.
   */
  keepNote(note: { id: string; sessionHash: string; sealed: string; expiresAt: number }, now: number): Promise<void>;
  /** Removes the note and answers what it held, if it is that session's and alive at `now`; once only, even when asked twice at once. */
  takeNote(id: string, sessionHash: string, now: number): Promise<string | undefined>;
  /**
   * Holds the account's users until the transaction ends, so two owners removing or demoting each
   * other at once cannot both find "another owner remains" (PostgreSQL: the account row FOR UPDATE;
   * SQLite's one writer already serializes them). Inside a transaction only.
   */
  lockUsersOf(accountId: string): Promise<void>;
  /** Gives a user another role; whether the user exists in the account. */
  setRole(accountId: string, userId: string, role: Role): Promise<boolean>;
  /** Removes a user (their sessions first); whether the user existed in the account. */
  deleteUser(accountId: string, userId: string): Promise<boolean>;
  appendAudit(entry: AuditEntry): Promise<void>;
  /** The account's audit log, newest first. */
  listAudit(accountId: string, limit: number): Promise<AuditEntry[]>;
}
