import { Worker } from 'node:worker_threads';

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint) every 1,000 pages,
 * on the connection that happens to commit: tens of milliseconds of writes and an fsync, on
 * Herald's event loop, in the middle of someone's request. Instead, the server's own connection
 * never checkpoints (`wal_autocheckpoint = 0`) and this thread, on a connection of its own, runs
 * a PASSIVE checkpoint every `intervalMs`: it never blocks writers, which append to the log
 * meanwhile.
 *
 * A writer starts the log again from its top only if, when its transaction begins, every frame
 * has been copied. Under a steady stream of writes that moment never comes (each pass ends with
 * new frames behind it), and the log would grow without bound: 1.6 GB in 30 s at 2,000 sends/s,
 * every append allocating disk space that each commit's fsync must journal. So once a pass leaves
 * `restartFrames` or more in the log, the thread runs a RESTART checkpoint: it takes the write
 * lock (waiting at most `restartWaitMs`, else it skips a pass or more), copies what was
 * written since the passive pass (a few milliseconds' worth) and waits for readers to leave the
 * log, so the next writer starts it from the top. Writers wait for that much (about 4 ms,
 * measured at 2,000 sends/s), with the event loop free (see `PatientConnection` in database.ts).
 */
export interface Checkpointer {
  stop(): Promise<void>;
}

/** 4,000 pages of 4 KiB: a 16 MiB log, about a third of a second of writes at the highest accept rate measured. */
const RESTART_FRAMES = 4_000;
const RESTART_WAIT_MS = 50;

// A CommonJS script: worker threads evaluate strings as scripts, not modules.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const Database = createRequire(workerData.requireFrom)('better-sqlite3');
const db = new Database(workerData.path, { timeout: 5000 });
let stopped = false;
// The size of the log when it was last made ready to restart: while a pass still reports it, no
// writer has come since, and there is nothing to restart.
let readyAt = -1;
// After a restart that could not finish (a reader stayed in the log, or writers kept the lock),
// the next ones skip a pass or more (up to 4, 2 s), so a long reader costs writers little; while
// the lock is only busy, the log grows for at most that long.
let pass = 0;
let restartFrom = 0;
let backoff = 1;
function checkpoint() {
  if (stopped) return;
  try {
    const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)');
    pass++;
    if (log < workerData.restartFrames) backoff = 1;
    if (log >= workerData.restartFrames && log !== readyAt && pass >= restartFrom) {
      db.pragma('busy_timeout = ' + workerData.restartWaitMs);
      try {
        const [restart] = db.pragma('wal_checkpoint(RESTART)');
        if (restart.busy === 0) {
          readyAt = restart.log;
          backoff = 1;
        } else {
          restartFrom = pass + 1 + backoff;
          backoff = Math.min(backoff * 2, 4);
        }
      } finally {
        db.pragma('busy_timeout = 5000');
      }
    }
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
    /** Once a pass leaves this many frames (pages) in the log, the log is restarted from its top. */
    restartFrames?: number;
    /** How long a restart waits for the write lock and for readers before it gives up until the next pass. */
    restartWaitMs?: number;
    onError?: (message: string) => void;
    /** Called if the thread ends without being asked to: the caller must checkpoint again itself. */
    onDeath?: () => void;
  },
): Checkpointer {
  const worker = new Worker(SCRIPT, {
    eval: true,
    workerData: {
      path,
      intervalMs: options.intervalMs,
      restartFrames: options.restartFrames ?? RESTART_FRAMES,
      restartWaitMs: options.restartWaitMs ?? RESTART_WAIT_MS,
      requireFrom: import.meta.url,
    },
  });
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
