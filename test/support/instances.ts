import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { sharedTestDatabase } from './database.js';
import { START_TIME, TestService } from './harness.js';

export interface TwoInstances {
  readonly first: TestService;
  readonly second: TestService;
  readonly clock: ManualClock;
}

/**
 * Two services on one database and one clock, as two instances behind a load balancer, started before the file's tests
 * (together, so the migrations race too) and closed after them. `secondEnv` gives the second instance settings of its
 * own, such as the first one's public URL.
 */
export function twoInstancesOnOneDatabase(options: { secondEnv?: () => Record<string, string> } = {}): TwoInstances {
  const clock = new ManualClock(START_TIME);
  let shared: Awaited<ReturnType<typeof sharedTestDatabase>> | undefined;
  let first: TestService | undefined;
  let second: TestService | undefined;
  const started = (service: TestService | undefined): TestService => {
    if (service === undefined) throw new Error('the two instances start in beforeAll');
    return service;
  };

  beforeAll(async () => {
    shared = await sharedTestDatabase();
    if (options.secondEnv === undefined) {
      [first, second] = await Promise.all([TestService.start({ database: shared.open(), clock }), TestService.start({ database: shared.open(), clock })]);
    } else {
      first = await TestService.start({ database: shared.open(), clock });
      second = await TestService.start({ database: shared.open(), clock, env: options.secondEnv() });
    }
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await shared?.dispose();
  });

  return {
    get first() {
      return started(first);
    },
    get second() {
      return started(second);
    },
    clock,
  };
}
