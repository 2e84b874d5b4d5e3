import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { MemoryLimiterStore } from '../../src/limits/memoryStore.js';
import { PostgresLimiterStore } from '../../src/limits/postgresStore.js';
import { RedisLimiterStore } from '../../src/limits/redisStore.js';
import { LimiterStoreUnavailableError, type LimiterStore } from '../../src/limits/store.js';
import { openTestDatabase } from '../support/database.js';
import { CLOSED_REDIS_URL, redisTestUrl, uniquePrefix } from './support.js';

const quiet = () => {};

/**
 * The same rules on every store. Two handles on one shared store stand for two instances: they must count as one.
 * Memory always; Redis when TEST_REDIS_URL is set; PostgreSQL when TEST_DATABASE_URL is set.
 */
const stores: Array<{ name: string; available: boolean; open(): Promise<[LimiterStore, LimiterStore]>; close?(): Promise<void> }> = [];

let database: DatabaseHandle | undefined;
const postgres = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';
stores.push({
  name: 'PostgreSQL',
  available: postgres,
  async open() {
    database = await openTestDatabase();
    await migrateToLatest(database);
    return [new PostgresLimiterStore(database.pool!, database.db), new PostgresLimiterStore(database.pool!, database.db)];
  },
  close: () => database!.close(),
});
stores.push({
  name: 'Redis',
  available: redisTestUrl !== undefined,
  open: async () => [await RedisLimiterStore.connect(redisTestUrl!, quiet), await RedisLimiterStore.connect(redisTestUrl!, quiet)],
});

describe('the memory store', () => {
  it('counts per key within the window and says how long until it ends', async () => {
    const store = new MemoryLimiterStore();
    const limiter = store.limiter({ prefix: uniquePrefix(), points: 3, durationSeconds: 60 });
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await limiter.consume('key_a'));
    expect(states.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(states[3]!.resetMs).toBeGreaterThan(59_000);
    expect((await limiter.consume('key_b')).allowed).toBe(true);
  });

  it('refuses one prefix declared with two different numbers', () => {
    const store = new MemoryLimiterStore();
    store.limiter({ prefix: 'twice', points: 3, durationSeconds: 60 });
    expect(() => store.limiter({ prefix: 'twice', points: 4, durationSeconds: 60 })).toThrow(/declared twice/);
  });
});

for (const store of stores) {
  describe.skipIf(!store.available)(`the ${store.name} store, shared by two instances`, () => {
    let first: LimiterStore;
    let second: LimiterStore;
    beforeAll(async () => {
      [first, second] = await store.open();
    });
    afterAll(async () => {
      await first?.close();
      await second?.close();
      await store.close?.();
    });

    it('gives the same numbers as memory, counted once across both', async () => {
      const rule = { prefix: uniquePrefix(), points: 10, durationSeconds: 60 };
      const states = [];
      for (let i = 0; i < 12; i++) states.push(await (i % 2 === 0 ? first : second).limiter(rule).consume('key_shared'));
      expect(states.filter((s) => s.allowed)).toHaveLength(10);
      expect(states.slice(10).every((s) => !s.allowed && s.remaining === 0 && s.resetMs > 55_000 && s.resetMs <= 60_000)).toBe(true);
      expect(states[0]!.remaining).toBe(9);
    });

    it('peeks without spending and forgets a key on reset', async () => {
      const rule = { prefix: uniquePrefix(), points: 2, durationSeconds: 60 };
      expect(await first.limiter(rule).peek('who')).toMatchObject({ allowed: true, remaining: 2 });
      await first.limiter(rule).consume('who');
      await second.limiter(rule).consume('who');
      expect(await second.limiter(rule).peek('who')).toMatchObject({ allowed: false, remaining: 0 });
      await first.limiter(rule).reset('who');
      expect(await second.limiter(rule).peek('who')).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('keeps a long key by its hash', async () => {
      const rule = { prefix: uniquePrefix(), points: 1, durationSeconds: 60 };
      const email = `${'a'.repeat(300)}@example.com`;
      expect((await first.limiter(rule).consume(email)).allowed).toBe(true);
      expect((await second.limiter(rule).consume(email)).allowed).toBe(false);
    });

    it('lets no more provider calls run at once than the limit, across both', async () => {
      const provider = uniquePrefix();
      let running = 0;
      let most = 0;
      const task = async () => {
        running++;
        most = Math.max(most, running);
        await sleep(40);
        running--;
      };
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? first : second).slots(provider, 3).run(task)));
      expect(most).toBe(3);
    });
  });
}

describe.skipIf(!postgres)("the PostgreSQL store's table", () => {
  it('is unlogged: a counter write does not wait for the write-ahead log', async () => {
    const handle = await openTestDatabase();
    try {
      await migrateToLatest(handle);
      const { rows } = await sql<{ relpersistence: string }>`select relpersistence from pg_class where oid = 'rate_limits'::regclass`.execute(handle.db);
      expect(rows).toEqual([{ relpersistence: 'u' }]);
    } finally {
      await handle.close();
    }
  });
});

describe('an unreachable Redis', () => {
  it('fails closed: a call is refused with a 503 naming the store, never let through uncounted', async () => {
    const problems: string[] = [];
    const store = await RedisLimiterStore.connect(CLOSED_REDIS_URL, (message) => problems.push(message));
    try {
      const limiter = store.limiter({ prefix: uniquePrefix(), points: 5, durationSeconds: 60 });
      const refused = await limiter.consume('key').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(LimiterStoreUnavailableError);
      expect((refused as LimiterStoreUnavailableError).status).toBe(503);
      expect((refused as LimiterStoreUnavailableError).message).toMatch(/Redis at REDIS_URL, which keeps them, does not answer/);
      await expect(store.slots(uniquePrefix(), 1).run(async () => 'ran')).rejects.toBeInstanceOf(LimiterStoreUnavailableError);
      expect(problems.join('\n')).toMatch(/did not answer/);
    } finally {
      await store.close();
    }
  });
});

describe('an unreachable PostgreSQL limiter store', () => {
  it('fails closed as well, naming the database', async () => {
    const handle = openDatabase('postgres://postgres@127.0.0.1:1/nothing');
    const store = new PostgresLimiterStore(handle.pool!, handle.db);
    try {
      const refused = await store
        .limiter({ prefix: uniquePrefix(), points: 5, durationSeconds: 60 })
        .consume('key')
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(LimiterStoreUnavailableError);
      expect((refused as Error).message).toMatch(/the PostgreSQL database, which keeps them, does not answer/);
      await expect(store.slots(uniquePrefix(), 1).run(async () => 'ran')).rejects.toBeInstanceOf(LimiterStoreUnavailableError);
    } finally {
      await store.close();
      await handle.close();
    }
  });
});
