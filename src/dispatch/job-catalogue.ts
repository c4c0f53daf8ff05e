import Type, { type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { CHANNEL_NAME } from '../core/channels.js';
import type { JobKind, JobPayloads } from '../core/delivery/job-kinds.js';
import type { ClaimedJob } from '../core/ports.js';
import { deliverMessages, markForHandOver } from './deliver-message.job.js';
import { deliverWebhook, giveUpWebhookDelivery } from './deliver-webhook.job.js';
import { giveUpDelivery } from './delivery-endings.js';
import type { DispatchContext } from './dispatch-context.js';
import type { BatchJobHandler, ClaimStep, Job, JobHandler, OnDropped } from './job.js';
import { applyProviderReceipts } from './provider-receipt.job.js';
import { receiveQueuedMessage, sendKeywordConfirmation } from './receive-message.job.js';
import { JOB_FAILURE_POLICY, type RetryPolicy } from './retry-policy.js';

export { JOB_KINDS, type JobKind } from '../core/delivery/job-kinds.js';

/**
 * One kind of job: the shape of its payload, how it runs, how it is retried and what its work
 * becomes when it is given up. Every kind in JOB_KINDS must have one (JOB_CATALOGUE's type says
 * so), with a handler for its own payload type: a kind left out, or a handler for another
 * payload, fails to compile.
 */
export interface JobSpec<K extends JobKind> {
  /** Checks a stored payload; a job whose payload fails is handled as a job whose handler threw. */
  payload: PayloadCheck<K>;
  /**
   * `batch`: the kind's claimed jobs go to the handler together (their work is mostly store
   * writes, which batch well). `one`: each job runs on its own lane (a request to its own receiver).
   */
  run:
    | BatchRun<K>
    | {
        one: JobHandler<K>;
        /**
         * Jobs that share a key run at most `limit` at a time in a process (a webhook receiver's
         * slots); the worker keeps the others waiting in claim order, holding no lane.
         */
        slot?: (ctx: DispatchContext, payload: JobPayloads[K]) => { key: string; limit: number } | undefined;
      };
  /**
   * When a job whose handler threw (a bug, a broken row: not a provider's answer) comes back, and
   * after how many failures in a row it is dropped. The retries a handler decides itself (a
   * provider's answer, a receiver's) follow the schedules in retry-policy.ts named below.
   */
  failures: RetryPolicy;
  /** What the work of a job dropped after too many failures in a row becomes (none: it is just removed). */
  onDropped?: OnDropped<K>;
}

/** How a kind run in batches runs: its handler, and the step it takes in the claim's transaction, if any. */
export interface BatchRun<K extends JobKind> {
  batch: BatchJobHandler<K, unknown>;
  onClaim?: ClaimStep<K, unknown> | undefined;
}

/** A batch kind's run: `onClaim`'s result is what `handler` is given (typed here, unknown to the worker). */
function batchOf<K extends JobKind, P = undefined>(handler: BatchJobHandler<K, P>, onClaim?: ClaimStep<K, P>): BatchRun<K> {
  // Sound: the worker gives a batch's handler only what the same kind's onClaim returned.
  return { batch: handler as BatchJobHandler<K, unknown>, onClaim };
}

/** A compiled check of one kind's payload; its schema's type must fit the kind's payload type. */
export interface PayloadCheck<K extends JobKind> {
  (payload: unknown): payload is JobPayloads[K];
  /** Why `payload` does not fit, for the job's error. */
  explain(payload: unknown): string;
}

/** Whether a value of type A is a B, and A names every property B has (an optional one left out counts). */
type Same<A, B> = [A] extends [B] ? ([keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false) : false;

/** Compiles `schema` as the check of a kind's payload, whose type must be the same as the schema's. */
function payloadCheck<K extends JobKind, S extends TSchema>(
  schema: S & (Same<Static<S>, JobPayloads[K]> extends true ? unknown : never),
): PayloadCheck<K> {
  const validator = Compile(schema);
  return Object.assign((payload: unknown): payload is JobPayloads[K] => validator.Check(payload), {
    explain(payload: unknown): string {
      const [first] = validator.Errors(payload);
      return first ? `payload${first.instancePath} ${first.message}` : 'payload does not fit';
    },
  });
}

const providerReceipt = Type.Object({
  channel: Type.String({ pattern: CHANNEL_NAME.source }),
  providerMessageId: Type.String(),
  alternativeIds: Type.Optional(Type.Array(Type.String())),
  messageId: Type.Optional(Type.String()),
  route: Type.Optional(Type.String()),
  status: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('read'), Type.Literal('complained')]),
  code: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  occurredAt: Type.Number(),
});

const webhookDelivery = Type.Object({ deliveryId: Type.String(), receiver: Type.Optional(Type.String()) });

const receivedMessage = Type.Object({
  received: Type.Object({
    channel: Type.String({ pattern: CHANNEL_NAME.source }),
    from: Type.String(),
    to: Type.String(),
    text: Type.String(),
    receivedAt: Type.Number(),
    providerMessageId: Type.Optional(Type.String()),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    joinedFrom: Type.Optional(
      Type.Object({ from: Type.String(), to: Type.String(), reference: Type.Number(), route: Type.Optional(Type.String()) }),
    ),
  }),
  accountId: Type.Optional(Type.String()),
});

const keywordConfirmation = Type.Object({
  messageId: Type.String(),
  accountId: Type.String(),
  channel: Type.String({ pattern: CHANNEL_NAME.source }),
  to: Type.String(),
  from: Type.String(),
  action: Type.Union([Type.Literal('stop'), Type.Literal('start')]),
  language: Type.String(),
});

export const JOB_CATALOGUE: { readonly [K in JobKind]: JobSpec<K> } = {
  confirm_keyword: {
    payload: payloadCheck<'confirm_keyword', typeof keywordConfirmation>(keywordConfirmation),
    run: { one: sendKeywordConfirmation },
    failures: JOB_FAILURE_POLICY,
  },
  receive_message: {
    payload: payloadCheck<'receive_message', typeof receivedMessage>(receivedMessage),
    run: { one: receiveQueuedMessage },
    failures: JOB_FAILURE_POLICY,
  },
  deliver_message: {
    payload: payloadCheck<'deliver_message', ReturnType<typeof Type.Null>>(Type.Null()),
    // A retryable outcome backs off on the configured RetryPolicy until its attempt or age limit.
    // Marked for hand-over in the claim's transaction (one commit a wave, not two).
    run: batchOf(deliverMessages, markForHandOver),
    failures: JOB_FAILURE_POLICY,
    onDropped: giveUpDelivery,
  },
  provider_receipt: {
    payload: payloadCheck<'provider_receipt', typeof providerReceipt>(providerReceipt),
    // A receipt that matches no message yet: UNMATCHED_RECEIPT_RETRY, then dropped with a warning.
    run: batchOf(applyProviderReceipts),
    failures: JOB_FAILURE_POLICY,
  },
  deliver_webhook: {
    payload: payloadCheck<'deliver_webhook', typeof webhookDelivery>(webhookDelivery),
    // A failed attempt: WEBHOOK_RETRY_DELAYS_MS; a receiver busy in this process: busyReceiverRetryAt.
    run: {
      one: deliverWebhook,
      // Jobs queued by versions that did not name the receiver take their slot once they have read it.
      slot: (ctx, { receiver }) => (receiver === undefined ? undefined : { key: receiver, limit: ctx.webhooks.perReceiverConcurrency }),
    },
    failures: JOB_FAILURE_POLICY,
    onDropped: giveUpWebhookDelivery,
  },
};

/** The spec of a stored kind, undefined for a kind this version does not know. */
export function specOf(kind: string): JobSpec<JobKind> | undefined {
  // One kind's spec read as any kind's: sound, as the job it is used for has that kind.
  return Object.hasOwn(JOB_CATALOGUE, kind) ? (JOB_CATALOGUE[kind as JobKind] as unknown as JobSpec<JobKind>) : undefined;
}

/** A claimed job ready to run: its payload checked, with its kind's handler (and slot, if its kind has them). */
export type Runnable =
  | { batch: BatchJobHandler<JobKind, unknown>; onClaim?: ClaimStep<JobKind, unknown> | undefined; job: Job; one?: undefined }
  | { one: JobHandler<JobKind>; job: Job; batch?: undefined; slot?: Extract<JobSpec<JobKind>['run'], { one: unknown }>['slot'] };

/** `job` with its handler once its payload has been checked; an Error saying why it cannot run otherwise. */
export function runnable(job: ClaimedJob): Runnable | Error {
  const spec = specOf(job.kind);
  if (!spec) return new Error(`no handler for job kind ${job.kind}`);
  if (!spec.payload(job.payload)) return new Error(`${job.kind} job with a broken ${spec.payload.explain(job.payload)}`);
  const typed = job as Job;
  return 'batch' in spec.run
    ? { batch: spec.run.batch, onClaim: spec.run.onClaim, job: typed }
    : { one: spec.run.one, job: typed, slot: spec.run.slot };
}
