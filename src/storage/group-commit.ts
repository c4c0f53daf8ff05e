/**
 * Group commit: units of work that arrive while a commit is under way wait for it, then run
 * together in the next transaction, one after another, each inside its own savepoint. One commit
 * (one fsync on SQLite with synchronous=FULL, one WAL flush on PostgreSQL) then makes all of them
 * durable, and every caller is answered only after that commit. A unit that throws is rolled back
 * to its savepoint and gets its own error; its neighbours are not affected. If the commit itself
 * fails, every unit of the group gets that error: none of them took effect.
 *
 * At low load a unit finds no group forming and runs alone, without savepoints: no added latency.
 */
export interface GroupTransactions<Tx> {
  /** Runs `work` in one new transaction. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Savepoint statements on the transaction's connection. */
  savepoint(tx: Tx): Promise<void>;
  rollbackToSavepoint(tx: Tx): Promise<void>;
  releaseSavepoint(tx: Tx): Promise<void>;
}

interface Unit<Tx> {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface GroupCommitStats {
  /** Transactions committed (or attempted) for grouped units. */
  groups: number;
  /** Units run. */
  units: number;
  /** The largest group so far. */
  largest: number;
}

export class GroupCommitter<Tx> {
  #queue: Array<Unit<Tx>> = [];
  #running = false;
  readonly stats: GroupCommitStats = { groups: 0, units: 0, largest: 0 };

  constructor(
    private readonly backend: GroupTransactions<Tx>,
    /** The most units one transaction takes; the rest wait for the next. */
    private readonly maxGroupSize = 500,
    /** Told the size of each group as it is taken (metrics). */
    private readonly onGroup?: (units: number) => void,
  ) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        // Requests read in the same turn of the event loop join this group.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const group = this.#queue.splice(0, this.maxGroupSize);
        this.stats.groups++;
        this.stats.units += group.length;
        this.stats.largest = Math.max(this.stats.largest, group.length);
        this.onGroup?.(group.length);
        await (group.length === 1 ? this.#runAlone(group[0] as Unit<Tx>) : this.#runTogether(group));
      }
    } finally {
      this.#running = false;
    }
  }

  async #runAlone(unit: Unit<Tx>): Promise<void> {
    try {
      unit.resolve(await this.backend.transaction((tx) => unit.work(tx)));
    } catch (error) {
      unit.reject(error);
    }
  }

  async #runTogether(group: Array<Unit<Tx>>): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await this.backend.transaction(async (tx) => {
        for (const unit of group) {
          await this.backend.savepoint(tx);
          try {
            const value = await unit.work(tx);
            await this.backend.releaseSavepoint(tx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            try {
              await this.backend.rollbackToSavepoint(tx);
              await this.backend.releaseSavepoint(tx);
            } catch {
              // The database ended the whole transaction itself (an I/O error, a full disk): the
              // group fails, with the error that caused it rather than "no such savepoint".
              throw error;
            }
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit (or a savepoint statement) failed: nothing of this group took effect.
      for (const unit of group) unit.reject(error);
      return;
    }
    group.forEach((unit, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }
}
