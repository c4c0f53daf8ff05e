import type { AccountAccess } from '../core/accounts/account.js';
import { BoundedMap } from '../core/bounded-map.js';

/**
 * What each account's requests are checked against (its suspension, IP allow-list and clients),
 * kept in memory by a process whose store tells it of every change. PostgreSQL: the change NOTIFYs
 * in its own transaction, and notifications.ts drops the account's entry when the notification
 * arrives. SQLite: triggers count every change in the change's own transaction (migration 0025),
 * and the store reads the count before each check (`observe`): when it moved, everything kept goes.
 * Every authenticated request checks its account's access; on PostgreSQL that read was a round
 * trip per request, the costliest part of an accepted send, and on SQLite three indexed reads and
 * a sort where the count is one row.
 *
 * The cache serves only while it is live, i.e. while its listener has a LISTEN in place (SQLite:
 * from the first count it observes); it starts
 * empty each time it goes live, so a change made while notifications were not being received is
 * never missed. A read that was under way when any change was announced is answered but not kept
 * (it may hold the old access). A connection that goes silent without closing is noticed by the
 * listener's heartbeat; an entry is kept at most `maxAgeMs` all the same.
 *
 * A change takes effect in the process that makes it at once, and in other processes when its
 * notification reaches them, which PostgreSQL sends at commit (typically well under a millisecond
 * on one network).
 */
export class AccessCache<T = AccountAccess> {
  readonly #entries: BoundedMap<string, { value: T; at: number }>;
  /** Moves on at every change announced: a read that saw it move keeps nothing. */
  #generation = 0;
  #live = false;
  /** The change count last observed (SQLite). */
  #version = 0;

  constructor(
    private readonly maxAgeMs = 30_000,
    maxAccounts = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#entries = new BoundedMap(maxAccounts);
  }

  /** The account's access: kept while live and fresh, otherwise `read` (kept if nothing changed meanwhile). */
  async get(accountId: string, read: (accountId: string) => Promise<T>): Promise<T> {
    if (!this.#live) return read(accountId);
    const kept = this.#entries.get(accountId);
    if (kept && this.now() - kept.at < this.maxAgeMs) return kept.value;
    const generation = this.#generation;
    const at = this.now();
    const value = await read(accountId);
    if (this.#live && generation === this.#generation) this.#entries.set(accountId, { value, at });
    return value;
  }

  /** The account's access changed (or may have): its entry goes, and reads under way keep nothing. */
  invalidate(accountId: string): void {
    this.#generation++;
    this.#entries.delete(accountId);
  }

  /**
   * The store's count of changes to access, read just before a check (SQLite): the first makes the
   * cache live, and one that moved makes it forget everything and keep nothing a read under way
   * brings back.
   */
  observe(version: number): void {
    if (this.#live && version === this.#version) return;
    this.#version = version;
    this.setLive(true);
  }

  /** Whether changes are being received. Either way, everything kept so far goes. */
  setLive(live: boolean): void {
    this.#live = live;
    this.#generation++;
    this.#entries.clear();
  }

  get live(): boolean {
    return this.#live;
  }
}
