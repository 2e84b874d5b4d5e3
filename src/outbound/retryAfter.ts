import { z } from 'zod';

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

const retryInfoSchema = z.object({
  error: z.object({ details: z.array(z.object({ '@type': z.string().optional(), retryDelay: z.string().optional() }).loose()) }).loose(),
});

/**
 * The wait Google's APIs (Gemini, Analytics Data) ask for in a JSON error body rather than a header: a
 * google.rpc.RetryInfo detail whose retryDelay is a protobuf Duration in JSON ("37s", "0.5s"); in milliseconds up to
 * `maxMs`, undefined when the body has none.
 */
export function googleRetryInfoMs(json: unknown, maxMs: number): number | undefined {
  const parsed = retryInfoSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const delay = parsed.data.error.details.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const seconds = Number(/^(\d+(?:\.\d+)?)s$/.exec(delay ?? '')?.[1]);
  return Number.isFinite(seconds) ? Math.min(seconds * 1000, maxMs) : undefined;
}
