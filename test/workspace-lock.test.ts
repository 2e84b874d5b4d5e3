import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { ManualClock } from '../src/clock.js';
import { createWorkspace, lockWorkspace } from '../src/workspace/workspaces.js';
import { openTestDatabase } from './support/database.js';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
  await migrateToLatest(handle);
});
afterAll(() => handle.close());

describe('lockWorkspace', () => {
  it('makes a second writer of the same workspace wait until the first commits', async () => {
    const workspaceId = await createWorkspace(handle.db, new ManualClock(0), { name: 'Acme', websiteUrl: 'https://acme.example' });
    const order: string[] = [];
    const first = handle.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      order.push('first locked');
      await sleep(150);
      order.push('first commits');
    });
    await sleep(30);
    await handle.db.transaction().execute(async (trx) => {
      await lockWorkspace(trx, workspaceId);
      order.push('second locked');
    });
    await first;
    expect(order).toEqual(['first locked', 'first commits', 'second locked']);
  });
});
