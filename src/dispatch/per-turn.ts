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
