import { expect } from 'vitest';
import { WebAnalyticsError } from '../../src/analytics/providers/provider.js';

/** The error a provider call fails with, checked to be of the expected class (the test fails if the call succeeds). */
export function failure<E extends WebAnalyticsError>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(type);
      return error as E;
    },
  );
}

/** Whatever a constructor throws, for settings that must be refused before any request. */
export function thrown(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error('expected the constructor to throw');
}
