import { expect } from 'vitest';
import { EngineError } from '../../../src/visibility/engines/engine.js';
import type { EngineTuning } from '../../../src/visibility/engines/index.js';

/** Short timeouts and backoff, so retries and timeouts take milliseconds. */
export const TUNING: EngineTuning = { timeoutMs: 2000, retries: 2, backoffMs: 5, concurrency: 4 };

/** The EngineError an answer fails with (the test fails if it answers). */
export function failure(promise: Promise<unknown>): Promise<EngineError> {
  return promise.then(
    () => {
      throw new Error('expected the answer to fail');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(EngineError);
      return error as EngineError;
    },
  );
}
