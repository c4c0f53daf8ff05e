import { BlockList, isIP } from 'node:net';
import { accountSuspended, ipNotAllowed } from '../errors.js';
import type { AccountsPort } from '../ports.js';
import type { AccountAccess } from './account.js';

/**
 * An account's IP allow-list: addresses and CIDR ranges, IPv4 and IPv6. An empty list allows every
 * address; otherwise a request must come from one of them (the token endpoint and /v1).
 */

/** The canonical form of an address or range (`203.0.113.7/32`, `2001:db8::/32`), or undefined if it is neither. */
export function parseIpRule(text: string): string | undefined {
  const [rawAddress, prefix, ...rest] = text.trim().toLowerCase().split('/');
  if (rest.length > 0 || !rawAddress) return undefined;
  const address = unmapped(rawAddress);
  const family = isIP(address);
  if (family === 0) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return undefined;
  const length = prefix === undefined ? bits : Number(prefix);
  if (length > bits) return undefined;
  return `${address}/${length}`;
}

/** An IPv4 address written as IPv4-mapped IPv6 (`::ffff:127.0.0.1`, as dual-stack sockets report it), as IPv4. */
export function unmapped(address: string): string {
  const match = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return match?.[1] ?? address;
}

/** Whether `address` may call on behalf of an account with these rules (canonical forms). */
export function isAllowedAddress(rules: readonly string[], address: string): boolean {
  if (rules.length === 0) return true;
  const ip = unmapped(address);
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const rule of rules) {
    const [network, prefix] = rule.split('/');
    const ruleFamily = isIP(network ?? '');
    if (ruleFamily === 0) continue;
    list.addSubnet(network as string, Number(prefix), ruleFamily === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * What every token request and API call of an account is checked against, in one read of its
 * access: the account is not suspended (ACCOUNT_SUSPENDED), the caller's address is on its
 * allow-list (IP_NOT_ALLOWED), and the calling client still exists (`revoked`: a token of a client
 * removed since it was issued); with the access it read, for the rest of the request.
 */
export async function checkAccess(
  accounts: Pick<AccountsPort, 'access'>,
  caller: { accountId: string; clientId: string },
  address: string,
): Promise<{ access: AccountAccess; revoked: boolean }> {
  const access = await accounts.access(caller.accountId);
  if (access.suspended) throw accountSuspended();
  if (!isAllowedAddress(access.ipRules, address)) throw ipNotAllowed(address);
  return { access, revoked: !access.clientIds.includes(caller.clientId) };
}
