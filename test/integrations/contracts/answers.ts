// What every family's contract test does to a provider's real answers and asks of its failures, in one place so that
// the families are held to the same cases.

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

export const RETRY_AFTER_MS_NAME = 'retry-after-ms';

/** A wait each kind of retry hint asks for, and the headers that ask for it. */
export interface RetryHint {
  name: string;
  headers: (now: number) => Record<string, string>;
  /** The wait asked for, in ms; a date is read to the whole second, so it asks for up to a second less. */
  waitMs: { min: number; max: number };
}

/**
 * Retry-After in whole seconds, Retry-After as an HTTP date `dateSeconds` away (read to the whole second, so at least
 * a second more than the shortest wait it must show), and retry-after-ms with `ms`.
 */
export function retryHints({ seconds, dateSeconds = seconds, ms }: { seconds: number; dateSeconds?: number; ms: number }): RetryHint[] {
  const wait = seconds * 1000;
  const dateWait = dateSeconds * 1000;
  return [
    { name: 'Retry-After in seconds', headers: () => ({ 'retry-after': String(seconds) }), waitMs: { min: wait, max: wait } },
    { name: 'Retry-After as an HTTP date', headers: (now) => ({ 'retry-after': new Date(now + dateWait).toUTCString() }), waitMs: { min: dateWait - 1000, max: dateWait } },
    { name: RETRY_AFTER_MS_NAME, headers: () => ({ 'retry-after-ms': String(ms) }), waitMs: { min: ms, max: ms } },
  ];
}
