import { Worker } from 'node:worker_threads';

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint) every 1,000 pages,
 * on the connection that happens to commit: tens of milliseconds of writes and an fsync, on
 * Herald's event loop, in the middle of someone's request. Instead, the server's own connection
 * never checkpoints (`wal_autocheckpoint = 0`) and this thread, on a connection of its own, runs
 * a PASSIVE checkpoint every `intervalMs`: it never blocks writers, which append to the log
 * meanwhile, and the log restarts from the top once it has been copied.
 */
export interface Checkpointer {
  stop(): Promise<void>;
}

// A CommonJS script: worker threads evaluate strings as scripts, not modules.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const Database = createRequire(workerData.requireFrom)('better-sqlite3');
const db = new Database(workerData.path, { timeout: 5000 });
let stopped = false;
function checkpoint() {
  if (stopped) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
  setTimeout(checkpoint, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  stopped = true;
  try { db.close(); } catch {}
  parentPort.close();
});
setTimeout(checkpoint, workerData.intervalMs);
`;

export function startCheckpointer(
  path: string,
  options: {
    intervalMs: number;
    onError?: (message: string) => void;
    /** Called if the thread ends without being asked to: the caller must checkpoint again itself. */
    onDeath?: () => void;
  },
): Checkpointer {
  const worker = new Worker(SCRIPT, { eval: true, workerData: { path, intervalMs: options.intervalMs, requireFrom: import.meta.url } });
  worker.on('message', (message: { error?: string }) => {
    if (message.error) options.onError?.(message.error);
  });
  worker.on('error', (error) => options.onError?.(error.message));
  // It must never keep the process alive on its own.
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping) options.onDeath?.();
      resolve();
    }),
  );
  return {
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
