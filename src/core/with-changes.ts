/**
 * `{ ...base, ...changes }` for a change of some members: a new object, checked against `T` (a
 * misspelt or mistyped member does not compile), written as `Object.assign` onto a new object. On
 * Node 20 a copy made by a spread that then takes more members outlives the young collections
 * that should free it (docs/performance.md, "A spread that outlives its request";
 * test/object-spread.test.ts keeps that form out of src).
 */
export function withChanges<T extends object>(base: T, changes: Partial<T>): T {
  return Object.assign({}, base, changes);
}
