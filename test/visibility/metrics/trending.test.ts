import { describe, expect, it } from 'vitest';
import { trendingScore, type PeriodTotals } from '../../../src/visibility/metrics/trending.js';

const seen = (impressions: number, clicks: number): PeriodTotals => ({ impressions, clicks });

describe('trendingScore', () => {
  it('is null for a query Search Console shows in neither period', () => {
    expect(trendingScore(undefined, undefined)).toBeNull();
  });

  it('is 0.5 for steady interest, whatever its volume', () => {
    for (const figures of [seen(1, 0), seen(40, 3), seen(100_000, 4_000)]) expect(trendingScore(figures, figures)).toBe(0.5);
  });

  it('is the mean of the smoothed current shares of impressions and of clicks, rounded to 4 places', () => {
    // ((400 + 20) / (400 + 200 + 40) + (15 + 2) / (15 + 5 + 4)) / 2
    expect(trendingScore(seen(400, 15), seen(200, 5))).toBe(0.6823);
  });

  it('tends to 2/3 for doubled interest and 1/3 for halved, once the figures outweigh the smoothing', () => {
    expect(trendingScore(seen(200_000, 10_000), seen(100_000, 5_000))).toBeCloseTo(2 / 3, 3);
    expect(trendingScore(seen(100_000, 5_000), seen(200_000, 10_000))).toBeCloseTo(1 / 3, 3);
  });

  it('moves little on small numbers: tripled from 3 impressions is no trend', () => {
    const small = trendingScore(seen(9, 0), seen(3, 0))!;
    expect(small).toBeGreaterThan(0.5);
    expect(small).toBeLessThan(0.53);
    expect(trendingScore(seen(900, 30), seen(300, 10))).toBeGreaterThan(0.7);
  });

  it('reads a query new this period as rising, the more so the more it was searched, short of 1', () => {
    const few = trendingScore(seen(5, 0), undefined)!;
    const many = trendingScore(seen(5_000, 200), undefined)!;
    expect(few).toBe(trendingScore(seen(5, 0), seen(0, 0)));
    expect(few).toBeGreaterThan(0.5);
    expect(few).toBeLessThan(0.55);
    expect(many).toBeGreaterThan(0.98);
    expect(many).toBeLessThan(1);
  });

  it('reads a query searched only in the earlier period as falling, the mirror of a new one', () => {
    expect(trendingScore(undefined, seen(5_000, 200))).toBe(Math.round((1 - trendingScore(seen(5_000, 200), undefined)!) * 10_000) / 10_000);
    expect(trendingScore(undefined, seen(80, 4))).toBe(0.2083);
  });

  it('stays within 0 and 1', () => {
    for (const [current, previous] of [
      [seen(10_000_000, 1_000_000), seen(0, 0)],
      [seen(0, 0), seen(10_000_000, 1_000_000)],
    ] as const) {
      const score = trendingScore(current, previous)!;
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });
});
