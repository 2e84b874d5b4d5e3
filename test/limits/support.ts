import { randomBytes } from 'node:crypto';

/** A Redis server for the shared-store tests (CI sets it; `redis://127.0.0.1:6379` on a machine that runs one). */
export const redisTestUrl = process.env.TEST_REDIS_URL === '' ? undefined : process.env.TEST_REDIS_URL;

/** Port 1 on loopback: nothing listens there, so connections are refused at once. */
export const CLOSED_REDIS_URL = 'redis://127.0.0.1:1';

/** Counters of one test never meet another's, in a store the test runs share. */
export function uniquePrefix(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}
