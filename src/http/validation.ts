import { Ajv, type Options } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { parseIsoDateTime } from '../core/datetime.js';
import { isValidE164 } from '../core/phone.js';

/** Formats of our own, so every field problem is found in one pass and reported together. */
export const FORMATS = {
  /** A phone number in E.164 that exists in its country's numbering plan. */
  phone: 'e164',
  /** ISO 8601 date-time, with or without a UTC offset (without one it is UTC). */
  dateTime: 'iso-date-time',
} as const;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true, // one `details` entry per invalid field, not just the first
    verbose: true, // gives each error its parentSchema, where `errorMessage` lives
    useDefaults: true,
    removeAdditional: false, // unknown fields are reported, not silently dropped
    strict: false,
    ...options,
  });
  // ajv-formats is CommonJS: its function is the default export's `default` under NodeNext.
  (formatsPlugin as unknown as { default: (a: Ajv) => void }).default(ajv);
  // A sentence shown instead of Ajv's own when a `pattern` or `format` check fails.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  // A length limit in UTF-8 bytes, for fields limited in bytes rather than characters (Telegram's callback_data).
  ajv.addKeyword({
    keyword: 'maxBytes',
    type: 'string',
    schemaType: 'number',
    validate: (limit: number, data: string) => Buffer.byteLength(data, 'utf8') <= limit,
  });
  ajv.addFormat(FORMATS.phone, { type: 'string', validate: isValidE164 });
  ajv.addFormat(FORMATS.dateTime, { type: 'string', validate: (text: string) => parseIsoDateTime(text) !== undefined });
  return ajv;
}

/**
 * JSON bodies are validated as sent: `{"to": 123}` is a type error, not the string "123".
 * Query strings and path parameters are text by nature, so they are coerced to the declared types.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = createAjv({ coerceTypes: false });
  const textAjv = createAjv({ coerceTypes: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
