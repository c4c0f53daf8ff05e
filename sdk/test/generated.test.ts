import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_FILE, generatedTypes } from '../scripts/openapi-types.js';

it("the SDK's generated types match the OpenAPI document Herald serves (run `npm run sdk:generate` after a schema change)", async () => {
  const kept = readFileSync(GENERATED_FILE, 'utf8');
  const current = await generatedTypes();
  // Compared whole; on a difference, name the first line that differs rather than print 6,000.
  if (kept !== current) {
    const keptLines = kept.split('\n');
    const currentLines = current.split('\n');
    const at = currentLines.findIndex((line, i) => line !== keptLines[i]);
    expect(`line ${at + 1}: ${keptLines[at] ?? '(end)'}`).toBe(`line ${at + 1}: ${currentLines[at] ?? '(end)'}`);
  }
  expect(kept === current).toBe(true);
}, 60_000);
