import Type, { type TSchema } from 'typebox';
import { ERROR_CODES } from '../core/errors.js';

/** `{success: true, data}`: the body of every successful /v1 response (SEED 1). */
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

/** Error responses every authenticated /v1 route can give, to be spread into `response`. */
export const commonErrors = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  413: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
  503: ErrorEnvelope,
} as const;

/** A nullable value, as OpenAPI 3.1 and JSON Schema write it. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });
