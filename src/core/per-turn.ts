/**
 * Loads asked for one by one, made together: every key asked for in one turn of the event loop is
 * passed to `loadMany` in one call (the DataLoader pattern). Jobs that run side by side (webhook
 * deliveries, a lane each) then read the store in a few multi-row queries a turn instead of a few
 * queries each.
 */
export function perTurn<K, V>(loadMany: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  let waiting: Map<K, Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>> | undefined;
  const flush = (batch: NonNullable<typeof waiting>) => {
    loadMany([...batch.keys()]).then(
      (values) => {
        for (const [key, callers] of batch) for (const caller of callers) caller.resolve(values.get(key));
      },
      (error: unknown) => {
        for (const callers of batch.values()) for (const caller of callers) caller.reject(error);
      },
    );
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (!waiting) {
        const batch = new Map();
        waiting = batch;
        setImmediate(() => {
          waiting = undefined;
          flush(batch);
        });
      }
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
}

/**
 * Calls made one by one, run together: every item passed in one turn of the event loop goes to
 * `run` in one call (one transaction for a turn's receipts, or a turn's job outcomes). `run` may
 * say, item by item, which failed (an error at its index; undefined for those that did not): their
 * callers are rejected with it, the others resolved. Should `run` throw, every caller is rejected.
 */
export function batchPerTurn<T>(run: (items: T[]) => Promise<ReadonlyArray<unknown> | undefined>): (item: T) => Promise<void> {
  type Caller = { item: T; resolve: () => void; reject: (error: unknown) => void };
  let waiting: Caller[] | undefined;
  const flush = (batch: Caller[]) => {
    run(batch.map((entry) => entry.item)).then(
      (errors) => {
        batch.forEach((entry, i) => {
          const error = errors?.[i];
          if (error === undefined) entry.resolve();
          else entry.reject(error);
        });
      },
      (error: unknown) => {
        for (const entry of batch) entry.reject(error);
      },
    );
  };
  return (item) =>
    new Promise((resolve, reject) => {
      if (!waiting) {
        const batch: Caller[] = [];
        waiting = batch;
        setImmediate(() => {
          waiting = undefined;
          flush(batch);
        });
      }
      waiting.push({ item, resolve, reject });
    });
}
