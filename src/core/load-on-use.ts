import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used, not when Herald starts: for those only some
 * settings need (the PostgreSQL or the SQLite driver, Redis, an SMTP relay, the inbound SMTP
 * listener and its mail parser, OpenTelemetry). Each thread of a process (the API's, the dispatch
 * worker's) holds its own copy of every package it loaded, 1-6 MB of heap apiece, so a server that
 * loaded them all at start kept about 30 MB it never used (docs/performance-journal.md, "A young
 * generation per thread"). Each has a CommonJS build (some ship an ESM one too), so a synchronous
 * `require` serves and what uses them stays synchronous; their types come from `import type`, and
 * `.dependency-cruiser.cjs` refuses any other import of them. Loaded this way, they are out of
 * reach of a test runner's module mocks.
 *
 * A loader of packages for adapters, here because `core/` is the one folder every adapter imports;
 * it names no package itself.
 */
export function loadOnUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
