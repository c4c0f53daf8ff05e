/**
 * Polls `check` until it returns a truthy value (returned), or fails naming `what` after
 * `timeoutMs` (a function: read then, to say what was still missing).
 */
export async function until<T>(
  check: () => Promise<T | undefined | false | null>,
  what: string | (() => string),
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
