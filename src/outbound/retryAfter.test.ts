import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retryAfter.js';

const NOW = Date.parse('2026-11-21T09:00:00Z');

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, in milliseconds from now, within 0 and the cap', () => {
    expect(retryAfterMs('3', NOW, 60_000)).toBe(3000);
    expect(retryAfterMs(['2', '9'], NOW, 60_000)).toBe(2000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:10 GMT', NOW, 60_000)).toBe(10_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 08:59:00 GMT', NOW, 60_000)).toBe(0);
    expect(retryAfterMs('-5', NOW, 60_000)).toBe(0);
    expect(retryAfterMs('7200', NOW, 60_000)).toBe(60_000);
  });

  it('is undefined when absent or unreadable', () => {
    expect(retryAfterMs(undefined, NOW, 60_000)).toBeUndefined();
    expect(retryAfterMs('soon', NOW, 60_000)).toBeUndefined();
  });
});
