/**
 * How long a server asked to be left alone: its Retry-After header (seconds, or an HTTP date counted from `now`), in
 * milliseconds between 0 and `maxMs`; undefined when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number, maxMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), maxMs);
}
