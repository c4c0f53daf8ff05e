/**
 * Turns at SQLite's write lock for the threads of one process, first come first served.
 *
 * SQLite has one writer at a time. Between processes, a connection that finds the lock taken asks
 * again a millisecond later (database.ts, PatientConnection). Between the API thread and the
 * dispatch thread of one process that was unfair: a thread whose group commit had more waiting
 * began its next transaction in the turn that ended the last, and the other, asking every
 * millisecond, rarely found the lock free (sends waited 90 ms behind the worker's batches, and the
 * node shed them as if overloaded). So every SQLite transaction of the process first takes a ticket
 * from a counter shared by its threads (a SharedArrayBuffer) and waits, without polling
 * (Atomics.waitAsync), until that ticket is served: the threads take the lock in the order they
 * asked for it.
 */
export class WriteTurns {
  /** [0]: the next ticket to hand out; [1]: the ticket served now. Int32 arithmetic wraps for both alike. */
  readonly #cells: Int32Array;

  /** `buffer`: the counters of another thread's WriteTurns, to share its turns; a new pair when omitted. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.#cells = new Int32Array(buffer);
  }

  /** Resolves when it is this caller's turn; each call must be followed by exactly one `give`. */
  async take(): Promise<void> {
    const ticket = Atomics.add(this.#cells, 0, 1);
    for (;;) {
      const serving = Atomics.load(this.#cells, 1);
      if (serving === ticket) return;
      const waiting = Atomics.waitAsync(this.#cells, 1, serving);
      if (waiting.async) await waiting.value;
    }
  }

  /** Ends the current turn: the next ticket is served. */
  give(): void {
    Atomics.add(this.#cells, 1, 1);
    Atomics.notify(this.#cells, 1);
  }
}
