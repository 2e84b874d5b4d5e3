import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/support/database.js';
import type { DatabaseHandle } from './database.js';
import { migrateToLatest } from './migrate.js';
import { preparedQuery } from './prepared.js';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
  await migrateToLatest(handle);
  await handle.db
    .insertInto('workspaces')
    .values([
      { id: 'ws_a', name: 'A', website_url: 'https://a.example', plan: 'trial', created_at: 1 },
      { id: 'ws_b', name: 'B', website_url: 'https://b.example', plan: 'scale', created_at: 2 },
    ])
    .execute();
});
afterAll(() => handle.close());

const byIdAndPlan = preparedQuery((db, p: Record<'id' | 'plan', string>) =>
  db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', p.id).where('plan', '=', p.plan).where('created_at', '>', 0),
);

describe('preparedQuery', () => {
  it('runs the compiled query with the values of each call, keeping literal parameters', async () => {
    expect(await byIdAndPlan(handle.db, { id: 'ws_a', plan: 'trial' })).toEqual([{ id: 'ws_a', name: 'A' }]);
    expect(await byIdAndPlan(handle.db, { id: 'ws_b', plan: 'scale' })).toEqual([{ id: 'ws_b', name: 'B' }]);
    expect(await byIdAndPlan(handle.db, { id: 'ws_b', plan: 'trial' })).toEqual([]);
  });

  it('runs inside a transaction too', async () => {
    const rows = await handle.db.transaction().execute((trx) => byIdAndPlan(trx, { id: 'ws_a', plan: 'trial' }));
    expect(rows).toEqual([{ id: 'ws_a', name: 'A' }]);
  });
});
