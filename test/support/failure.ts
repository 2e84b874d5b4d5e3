import { expect } from 'vitest';

/** The error a call fails with, of the class expected (the test fails if it answers). */
export function failureOf<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
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
