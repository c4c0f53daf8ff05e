/**
 * Hand-overs whose outcome this process is recording: a message's id, with the wave (one
 * transaction) that records it. A provider's receipt often comes right behind its acceptance (an
 * SMSC reports DELIVRD a moment after `submit_sm_resp`); applied before the acceptance is
 * committed, it would find its message still queued, record the acceptance itself (a read, the
 * move to `sent`, the charge) and, on PostgreSQL, wait on the very rows the wave is writing, while
 * the wave waits on them in turn. A receipt for a message listed here waits for its wave first,
 * then is applied as the common case: one update from sent to delivered.
 *
 * Only this process's waves are known: a receipt heard by another process (another worker's bind)
 * still finds the message queued now and then, and records the acceptance itself, as before.
 */
export class RecordsUnderWay {
  readonly #byMessage = new Map<string, Promise<void>>();

  /** `recorded` settles (never rejects) once the wave that records this message's outcome has ended. */
  add(messageId: string, recorded: Promise<void>): void {
    this.#byMessage.set(messageId, recorded);
  }

  /** The wave has ended: its messages are no longer waited for (unless a later wave has them). */
  ended(messageIds: Iterable<string>, recorded: Promise<void>): void {
    for (const id of messageIds) if (this.#byMessage.get(id) === recorded) this.#byMessage.delete(id);
  }

  /**
   * What receipts for these messages wait for: their waves, or `maxMs` at most (a wave stuck on a
   * lock must not hold its receipts, and the SMSC's answer, as long; applied then, a receipt
   * records the acceptance itself, as it would without this). Undefined when none is being recorded.
   */
  waitFor(messageIds: Iterable<string | undefined>, maxMs: number): Promise<void> | undefined {
    const waves = this.of(messageIds);
    if (!waves) return undefined;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      waves.then(done, done);
    });
  }

  /** The waves that record these messages; undefined when none is being recorded. */
  of(messageIds: Iterable<string | undefined>): Promise<unknown> | undefined {
    if (this.#byMessage.size === 0) return undefined;
    const waves = new Set<Promise<void>>();
    for (const id of messageIds) {
      const wave = id === undefined ? undefined : this.#byMessage.get(id);
      if (wave) waves.add(wave);
    }
    if (waves.size === 0) return undefined;
    return waves.size === 1 ? [...waves][0] : Promise.all(waves);
  }

  /** Messages being recorded now (metrics, tests). */
  get size(): number {
    return this.#byMessage.size;
  }
}
