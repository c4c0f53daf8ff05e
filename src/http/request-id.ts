import { randomId } from '../core/ids.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A client's X-Request-Id is echoed when it is a sane token, so callers can correlate their logs
 * with ours; anything else is replaced.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : `req_${randomId(20)}`;
}
