import pino, { type Logger, type LoggerOptions } from 'pino';

/** Query parameters whose values never reach a log line. */
const SECRET_QUERY = /([?&](?:client_secret|access_token|token|secret|password)=)[^&]*/gi;

/**
 * Structured JSON logs. Authorization headers, cookies and anything named like a secret are
 * redacted wherever they appear, so tokens and client secrets never reach the log.
 */
export function createLogger(level: string, file?: string): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'herald' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
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
        url: req.url.replace(SECRET_QUERY, '$1[REDACTED]'),
        remote_address: req.ip ?? req.socket?.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ status_code: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
  // Standard output unless a file is named (the test suite keeps every log for its secret scan).
  return file ? pino(options, pino.destination({ dest: file, sync: true })) : pino(options);
}
