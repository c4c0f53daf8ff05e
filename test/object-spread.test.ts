import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Object literals that begin with a spread which other members follow (`{ ...a, b }`,
 * `{ ...a, ...b }`), as `file:line: text`. On Node 20 (V8 11.3) such an object, once a member is
 * added to the copy the spread made, outlives the young collections that should free it: a send
 * answered with `{ ...presentAccepted(m), segments }` promoted about 200 KB a second of dead
 * objects into the old generation at 1,500 sends/s, enough for a full collection every few
 * seconds (docs/performance-journal.md, "A spread that outlives its request"). `Object.assign({}, a, { b })`,
 * a literal with the spread after its first member (`{ b, ...a }`), or one spread alone do not.
 */
export function leadingSpreads(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && node.properties.length > 1 && ts.isSpreadAssignment(node.properties[0] as ts.Node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${fileName}:${line + 1}: ${node.getText(source).replace(/\s+/g, ' ').slice(0, 100)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Code that runs once a process, not per request, message or delivery: the composition root and
 * the CLI (`main/`), and the migrations. A spread there costs nothing worth a rule.
 */
const COLD = [/^main\//, /^storage\/migrations\//, /^storage\/migrator\.ts$/];

describe('object literals in the source', () => {
  it('finds a leading spread that other members follow, and lets the forms that do not outlive their request pass', () => {
    const text = [
      'const a = { ...x, b: 1 };',
      'const c = { ...x, ...y };',
      'const d = { b: 1, ...x };',
      'const e = { ...x };',
      'const f = Object.assign({}, x, { b: 1 });',
      'const g = { h: { ...x, i: 2 } };',
    ].join('\n');
    expect(leadingSpreads('sample.ts', text)).toEqual([
      'sample.ts:1: { ...x, b: 1 }',
      'sample.ts:2: { ...x, ...y }',
      'sample.ts:6: { ...x, i: 2 }',
    ]);
  });

  it('has none on the hot path: every file of src that runs per request, message or delivery', () => {
    const files = readdirSync(`${ROOT}/src`, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !COLD.some((cold) => cold.test(file)))
      .map((file) => `src/${file}`);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => leadingSpreads(file, readFileSync(`${ROOT}/${file}`, 'utf8')));
    expect(found).toEqual([]);
  });
});
