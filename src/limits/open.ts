import type { DatabaseHandle } from '../../db/database.js';
import { MemoryLimiterStore } from './memoryStore.js';
import type { LimiterStore } from './store.js';

/**
 * The store every limit and provider slot lives in, so that N instances count as one: Redis when REDIS_URL is set,
 * else the PostgreSQL database when that is the store, else memory (the embedded default, one process). The shared
 * stores are loaded only when chosen: the Redis client alone is a tenth of the embedded default's start.
 */
export async function openLimiterStore(options: {
  redisUrl: string | undefined;
  database: DatabaseHandle;
  onProblem: (message: string, error?: unknown) => void;
}): Promise<LimiterStore> {
  if (options.redisUrl !== undefined) {
    const { RedisLimiterStore } = await import('./redisStore.js');
    return RedisLimiterStore.connect(options.redisUrl, options.onProblem);
  }
  if (options.database.pool !== undefined) {
    const { PostgresLimiterStore } = await import('./postgresStore.js');
    return new PostgresLimiterStore(options.database.pool, options.database.db);
  }
  return new MemoryLimiterStore();
}
