import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../clock.js';
import { AuthenticatedKeyCache, forgetAuthenticatedKeys, KEY_CACHE_TTL_MS } from './keyCache.js';

const START = Date.parse('2026-11-24T09:00:00.000Z');

// The settling pause after a revocation runs on the monotonic clock: each settled cache is seen from further ahead.
let monotonicNow = 1e9;

/** A cache whose process made its last revocation long ago. */
function settledCache(clock: ManualClock): AuthenticatedKeyCache<string> {
  monotonicNow += 1e6;
  vi.spyOn(performance, 'now').mockReturnValue(monotonicNow);
  return new AuthenticatedKeyCache<string>(clock);
}

afterEach(() => vi.restoreAllMocks());

describe('authenticated key cache', () => {
  it('trusts a look-up for less than a second, counted from when the look-up began', () => {
    expect(KEY_CACHE_TTL_MS).toBeLessThan(1000);
    const clock = new ManualClock(START);
    const cache = settledCache(clock);
    const lookup = cache.lookupStarted();
    clock.advance(20);
    cache.remember('hash', 'principal', lookup);
    expect(cache.get('hash')).toBe('principal');
    clock.advance(KEY_CACHE_TTL_MS - 21);
    expect(cache.get('hash')).toBe('principal');
    clock.advance(1);
    expect(cache.get('hash')).toBeUndefined();
  });

  it('does not trust an entry once the clock was set back', () => {
    const clock = new ManualClock(START);
    const cache = settledCache(clock);
    cache.remember('hash', 'principal', cache.lookupStarted());
    clock.set(START - 1);
    expect(cache.get('hash')).toBeUndefined();
  });

  it('forgets everything on a revocation in this process, in every cache', () => {
    const clock = new ManualClock(START);
    const [one, two] = [settledCache(clock), settledCache(clock)];
    one.remember('a', 'first', one.lookupStarted());
    two.remember('b', 'second', two.lookupStarted());
    forgetAuthenticatedKeys();
    expect(one.get('a')).toBeUndefined();
    expect(two.get('b')).toBeUndefined();
  });

  it('keeps no answer of a look-up that began before a revocation', () => {
    const clock = new ManualClock(START);
    const cache = settledCache(clock);
    const lookup = cache.lookupStarted();
    forgetAuthenticatedKeys();
    cache.remember('hash', 'principal', lookup);
    expect(cache.get('hash')).toBeUndefined();
  });

  it('keeps nothing for a second after a revocation, while the revoking transaction may still be open', () => {
    const clock = new ManualClock(START);
    const cache = new AuthenticatedKeyCache<string>(clock);
    const now = vi.spyOn(performance, 'now').mockReturnValue(50_000);
    forgetAuthenticatedKeys();
    now.mockReturnValue(50_999);
    cache.remember('hash', 'principal', cache.lookupStarted());
    expect(cache.get('hash')).toBeUndefined();
    now.mockReturnValue(51_000);
    cache.remember('hash', 'principal', cache.lookupStarted());
    expect(cache.get('hash')).toBe('principal');
  });
});
