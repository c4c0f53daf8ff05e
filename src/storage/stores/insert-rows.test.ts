import { expect, it } from 'vitest';
import { describeEachDialect, useTestDatabase } from '../../../test/databases.js';
import { insertRows } from './insert-rows.js';

describeEachDialect('inserts with SQL built once per shape', (dialect) => {
  const test = useTestDatabase(dialect, { each: true });

  const secret = (name: string, value: string | null = `v-${name}`) => ({ name, value: value as string, created_at: 1_000 });
  const stored = () => test.database.db.selectFrom('server_secrets').selectAll().orderBy('name').execute();

  it('inserts each row with its own values when the same shape comes again, in and out of a transaction', async () => {
    await insertRows(test.database.db, 'server_secrets', [secret('a'), secret('b')]);
    await insertRows(test.database.db, 'server_secrets', [secret('c'), secret('d')]);
    await test.database.db.transaction().execute((tx) => insertRows(tx, 'server_secrets', [secret('e'), secret('f')]));
    await insertRows(test.database.db, 'server_secrets', [secret('g')]);
    expect((await stored()).map((row) => [row.name, row.value])).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => [name, `v-${name}`]),
    );
  });

  it('refuses rows that differ in their columns, and writes nothing', async () => {
    const odd = { name: 'x', value: 'y' } as ReturnType<typeof secret>; // no created_at
    await expect(insertRows(test.database.db, 'server_secrets', [secret('a'), odd])).rejects.toThrow(/differ in their columns/);
    expect(await stored()).toEqual([]);
  });

  it('refuses a row with a column left undefined, and writes nothing', async () => {
    const odd = { name: 'x', value: undefined, created_at: 1_000 } as unknown as ReturnType<typeof secret>;
    await expect(insertRows(test.database.db, 'server_secrets', [secret('a'), odd])).rejects.toThrow(/differ in their columns/);
    expect(await stored()).toEqual([]);
  });

  it('writes a hundred rows in one statement, past the shapes it keeps', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => secret(`k${String(i).padStart(3, '0')}`));
    await insertRows(test.database.db, 'server_secrets', rows);
    await insertRows(test.database.db, 'server_secrets', [secret('z', 'last')]);
    const all = await stored();
    expect(all).toHaveLength(101);
    expect(all[42]).toEqual({ name: 'k042', value: 'v-k042', created_at: 1_000 });
    expect(all[100]).toEqual({ name: 'z', value: 'last', created_at: 1_000 });
  });

  it('takes no statement for no rows', async () => {
    await insertRows(test.database.db, 'server_secrets', []);
    expect(await stored()).toEqual([]);
  });
});
