import Type, { type TSchema } from 'typebox';
import { ERROR_CODES } from '../core/errors.js';

/** `{success: true, data}`: the body of every successful /v1 response (errors: docs/errors.md). */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false });

export const FieldProblemSchema = Type.Object(
  {
    field: Type.String({ description: 'Dotted path of the field, e.g. `to` or `attachments.0.content`.' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/** `{success: false, error: {code, message, details?}}`: the body of every failed /v1 response. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object(
      {
        code: Type.Union(
          ERROR_CODES.map((code) => Type.Literal(code)),
          { description: 'Stable machine-readable code; see the error catalogue in docs/errors.md.' },
        ),
        message: Type.String({ description: 'A sentence for humans; may change between versions.' }),
        details: Type.Optional(Type.Array(FieldProblemSchema, { description: 'One entry per invalid field.' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/**
 * 503 SERVICE_UNAVAILABLE: the node is shutting down, or shedding load (http/admission.ts, bounds
 * in docs/operations.md, "Resource limits"). Either way nothing was done for the request.
 */
export const ServiceUnavailable = Type.Object(ErrorEnvelope.properties, {
  additionalProperties: false,
  description:
    'The node is shutting down, or overloaded and shedding load: the request was refused before any work was done ' +
    '(nothing stored, nothing charged, the Idempotency-Key not used), so it is safe to send again after `Retry-After` seconds, ' +
    'here or on another node. While a node is behind it lets in only the share of requests it can serve in time: sends while the ' +
    'oldest send waiting to be stored has waited longer than `OVERLOAD_MAX_QUEUE_WAIT_MS` (default 200 ms) or more than ' +
    '`OVERLOAD_MAX_QUEUED_MESSAGES` (default 20,000) wait; every request but the health checks and email tracking links while its ' +
    'event loop keeps stalling (three checks in a row) longer than `OVERLOAD_MAX_EVENT_LOOP_DELAY_MS` (default 50 ms) or is saturated (busy more than ' +
    '`OVERLOAD_MAX_EVENT_LOOP_BUSY_PERCENT`, default 98 %, of the time in long turns), or is past `OVERLOAD_MAX_HEAP_USED_BYTES` / ' +
    '`OVERLOAD_MAX_RSS_BYTES` when set.',
  headers: { 'retry-after': Type.Integer({ minimum: 1, description: 'Seconds to wait before sending the request again.' }) },
});

/** Error responses every authenticated /v1 route can give, to be spread into `response`. */
export const commonErrors = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  413: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
  503: ServiceUnavailable,
} as const;

/** A nullable value, as OpenAPI 3.1 and JSON Schema write it. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });

/** One of these strings (an enum), described for the reference. */
export const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );
