// What every family's contract test does to a provider's real answers and asks of its failures, in one place so that
// the families are held to the same cases.

import { expect } from 'vitest';
import { ProviderError, type ProviderErrorKind } from '../../../src/integrations/kit/providerError.js';

/** A field no provider sends today, added to every object of an answer: a newer API version's extra data must not stop a read. */
export const UNKNOWN_FIELD = 'added_by_a_newer_version';

export function withUnknownFields(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withUnknownFields);
  if (typeof body !== 'object' || body === null) return body;
  const copy = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, withUnknownFields(value)]));
  return { ...copy, [UNKNOWN_FIELD]: { note: 'not read by this adapter' } };
}

/** The answer with `field` left out wherever it occurs: a required field missing must be a bad answer, never a wrong figure. */
export function withoutField(body: unknown, field: string): unknown {
  if (Array.isArray(body)) return body.map((item) => withoutField(item, field));
  if (typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(Object.entries(body).flatMap(([key, value]) => (key === field ? [] : [[key, withoutField(value, field)]])));
}

/** A wait each kind of retry hint asks for, and the headers that ask for it. */
export interface RetryHint {
  name: string;
  headers: (now: number) => Record<string, string>;
  /** The wait asked for, in ms; a date is read to the whole second, so it asks for up to a second less. */
  waitMs: { min: number; max: number };
  /** A date: the wait it asks for shrinks as time passes, so the same answer sent again asks for less. */
  shrinks: boolean;
}

/**
 * Retry-After in whole seconds, Retry-After as an HTTP date `dateSeconds` away (read to the whole second, so at least
 * a second more than the shortest wait it must show), and retry-after-ms with `ms`.
 */
export function retryHints({ seconds, dateSeconds = seconds, ms }: { seconds: number; dateSeconds?: number; ms: number }): RetryHint[] {
  const wait = seconds * 1000;
  const dateWait = dateSeconds * 1000;
  return [
    { name: 'Retry-After in seconds', headers: () => ({ 'retry-after': String(seconds) }), waitMs: { min: wait, max: wait }, shrinks: false },
    { name: 'Retry-After as an HTTP date', headers: (now) => ({ 'retry-after': new Date(now + dateWait).toUTCString() }), waitMs: { min: dateWait - 1000, max: dateWait }, shrinks: true },
    { name: 'retry-after-ms', headers: () => ({ 'retry-after-ms': String(ms) }), waitMs: { min: ms, max: ms }, shrinks: false },
  ];
}

/** What every family asks of a failure, whatever its area's class adds: the ProviderError facts of one case. */
export interface ExpectedFailure {
  kind: ProviderErrorKind;
  /** The HTTP status it carries, null when no answer came; left out where the case does not fix one. */
  status?: number | null;
  /** The wait it carries, in ms (a hint's `waitMs`); `none` where the adapter must not claim one. */
  wait?: { min: number; max: number } | 'none';
  /** Whether it was running out of time; left out where the case does not tell. */
  timedOut?: boolean;
}

/** The failure as a ProviderError of the kind, status, wait and timeout expected (returned for the area's own fields). */
export function expectProviderError(error: unknown, expected: ExpectedFailure): ProviderError {
  expect(error).toBeInstanceOf(ProviderError);
  const failure = error as ProviderError;
  expect(failure.kind).toBe(expected.kind);
  if (expected.status !== undefined) expect(failure.status).toBe(expected.status);
  if (expected.timedOut !== undefined) expect(failure.timedOut).toBe(expected.timedOut);
  if (expected.wait === 'none') expect(failure.retryAfterMs).toBeUndefined();
  else if (expected.wait !== undefined) {
    expect(failure.retryAfterMs).toBeGreaterThanOrEqual(expected.wait.min);
    expect(failure.retryAfterMs).toBeLessThanOrEqual(expected.wait.max);
  }
  return failure;
}
