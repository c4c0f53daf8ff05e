import pino, { type Logger, type LoggerOptions } from 'pino';
import type pretty from 'pino-pretty';
import { loadOnUse } from '../core/load-on-use.js';

/** pino-pretty, loaded by the first logger for a person at a terminal (LOG_FORMAT): not by a service's. */
const loadPretty = loadOnUse<typeof pretty>('pino-pretty');

/**
 * A query parameter whose name says it holds a credential: its value never reaches a log line.
 * Token, secret, password, passphrase, signature, credential, session or jwt anywhere in the name;
 * a name that ends in key or keys (`key`, `api_key`, `apiKey`, `X-Api-Key`, `access_keys`) or in
 * auth (`auth`, `x-auth`, `basic_auth`); `authorization`, `sig` (SAS), `pwd`, `pass`, `otp`, `code`
 * (function keys, authorization codes). Matched on the name without a trailing `[...]` or version
 * number (`key[]`, `api_key2`, `apiKeyV2`).
 */
const SECRET_NAME =
  /token|secret|passw(?:or)?d|passphrase|signature|credential|session|jwt|keys?$|(?:^|[-_.])auth$|^(?:authorization|sig|pwd|pass|otp|code)$/i;

/** A parameter's name as SECRET_NAME reads it: `api_key[]` and `apiKeyV2` are `api_key` and `apiKey`. */
const baseName = (name: string): string => name.replace(/\[[^\]]*\]$/, '').replace(/[-_.]?v?\d+$/i, '');

/**
 * `name=value` after `?`, `&` or `;` (some servers split on `;` too), wherever it appears: a request
 * URL, an error message quoting one, a message string. The value ends at the next separator,
 * fragment or white space.
 */
const QUERY_PARAMETER = /([?&;])([^=&#;?\s]+)=([^&#;\s]*)/g;

function isSecretName(raw: string): boolean {
  if (SECRET_NAME.test(baseName(raw))) return true;
  // hub%2Everify%5Ftoken is the same name to the server that parses it.
  try {
    return raw.includes('%') && SECRET_NAME.test(baseName(decodeURIComponent(raw)));
  } catch {
    return false;
  }
}

/**
 * The text with the value of every query parameter named like a credential (SECRET_NAME, in any
 * case), and the token of a dashboard invitation link, replaced by `[REDACTED]`:
 * `/webhooks/whatsapp?hub.verify_token=abc` becomes `/webhooks/whatsapp?hub.verify_token=[REDACTED]`.
 */
export function redactQuerySecrets(given: string): string {
  // A dashboard invitation link carries its one-time token in the path (/dashboard/invitations/inv_...).
  const text = given.includes('/invitations/') ? given.replace(INVITATION_TOKEN, '$1[REDACTED]') : given;
  if (!text.includes('=')) return text;
  return text.replace(QUERY_PARAMETER, (whole, separator: string, name: string) =>
    isSecretName(name) ? `${separator}${name}=[REDACTED]` : whole,
  );
}

const INVITATION_TOKEN = /(\/invitations\/)[^/?#\s"']+/g;

/** The message pino gives `log.warn(err)` or `log.warn({ err })`: the error's own. */
function errorMessageOf(value: object): string | undefined {
  const error: unknown = value instanceof Error ? value : (value as { err?: unknown }).err;
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** pino's error serializer, with URLs quoted in the message or stack (Fastify's errors do) redacted. */
function serializeError(error: Error): ReturnType<typeof pino.stdSerializers.err> {
  const serialized = pino.stdSerializers.err(error);
  if (typeof serialized.message === 'string') serialized.message = redactQuerySecrets(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = redactQuerySecrets(serialized.stack);
  return serialized;
}

/**
 * Structured JSON logs. Authorization headers, cookies and anything named like a secret are
 * redacted wherever they appear, so tokens and client secrets never reach the log; so are the
 * values of query parameters named like one, in request URLs (`req.url`, a `url` field), error
 * messages and stacks, and message strings (Fastify quotes the raw URL in some of its own).
 */
export function createLogger(level: string, file?: string, output: { sync?: boolean; pretty?: boolean; color?: boolean } = {}): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'herald' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'client_secret',
        'clientSecret',
        'access_token',
        'accessToken',
        'password',
        'secret',
        '*.client_secret',
        '*.clientSecret',
        '*.access_token',
        '*.accessToken',
        '*.password',
        '*.secret',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: req.method,
        url: redactQuerySecrets(req.url),
        remote_address: req.ip ?? req.socket?.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ status_code: res.statusCode }),
      err: serializeError,
      url: (url: unknown) => (typeof url === 'string' ? redactQuerySecrets(url) : url),
    },
    hooks: {
      // Runs only for enabled levels; a message without '=' costs one includes().
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) {
          const arg = args[i];
          if (typeof arg === 'string') args[i] = redactQuerySecrets(arg);
        }
        // log.warn({ err }) and log.warn(err) take the error's message as theirs after this hook
        // has run (Fastify logs its own errors so, quoting the URL): give it redacted instead.
        const [first] = args;
        if (args.length === 1 && typeof first === 'object' && first !== null && !('msg' in first)) {
          const message = errorMessageOf(first);
          if (message !== undefined) return method.call(this, first, redactQuerySecrets(message));
        }
        return method.apply(this, args);
      },
    },
  };
  // Standard output unless a file is named (the test suite keeps every log for its secret scan).
  // `sync`: written before the call returns, for a worker thread, whose buffered lines pino only
  // flushes at exit on the main thread (the dispatch thread's last lines were lost at shutdown).
  // For a person at a terminal: one short coloured line a record, the same fields, redacted alike.
  if (output.pretty) {
    const sync = file !== undefined || output.sync === true;
    return pino(
      options,
      loadPretty()({
        colorize: file === undefined && output.color === true,
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,service',
        destination: file ?? 1,
        sync,
      }),
    );
  }
  if (file) return pino(options, pino.destination({ dest: file, sync: true }));
  return output.sync ? pino(options, pino.destination({ dest: 1, sync: true })) : pino(options);
}

/**
 * Whether logs go out as pretty lines: LOG_FORMAT=pretty, or auto with standard output a terminal.
 * Colours only for a terminal: LOG_FORMAT=pretty into a file or a journal writes plain lines.
 */
export function prettyLogs(format: 'json' | 'pretty' | 'auto', stdoutIsTty: boolean | undefined = process.stdout.isTTY): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty === true);
}
