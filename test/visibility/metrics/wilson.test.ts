import { describe, expect, it } from 'vitest';
import { componentsOf, compositeScore } from '../../../src/visibility/metrics/composite.js';
import { ZERO } from '../../../src/visibility/metrics/daily.js';
import { rate, wilsonInterval } from '../../../src/visibility/metrics/wilson.js';

describe('Wilson interval (95 %)', () => {
  it('matches published values', () => {
    // 8 of 10: the textbook example, [0.490, 0.943].
    expect(wilsonInterval(8, 10)).toEqual({ low: 0.4902, high: 0.9433 });
    // 0 of 10 and 10 of 10: the interval stays inside [0, 1] and is not empty, unlike the normal approximation.
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: 0.2775 });
    expect(wilsonInterval(10, 10)).toEqual({ low: 0.7225, high: 1 });
    // 50 of 100: [0.404, 0.596].
    expect(wilsonInterval(50, 100)).toEqual({ low: 0.4038, high: 0.5962 });
  });

  it('narrows as the sample grows around the same rate', () => {
    const small = wilsonInterval(3, 5)!;
    const large = wilsonInterval(300, 500)!;
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
  });

  it('has no rate and no interval without a sample: nothing is invented', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(rate(0, 0)).toEqual({ rate: null, interval: null, count: 0, of: 0 });
    expect(rate(3, 4)).toEqual({ rate: 0.75, interval: wilsonInterval(3, 4), count: 3, of: 4 });
  });
});

describe('composite score, version 1', () => {
  it('weighs the four components 0.40, 0.30, 0.20 and 0.10', () => {
    const brand = { ...ZERO, checked: 10, cited: 2, mentioned: 4, answersWithCitations: 8, positive: 6, sentimentScoreSum: 6 * 70 };
    // mention 6/10, citation 2/8, share of voice 6/(6+9), sentiment 0.70
    const score = compositeScore(componentsOf(brand, 9), 2);
    expect(score).toMatchObject({ score: Math.round(1000 * (0.4 * 0.6 + 0.3 * 0.4 + 0.2 * 0.25 + 0.1 * 0.7)) / 10, missing: [], reason: null });
    expect(score.basedOn).toEqual(['mentionRate', 'shareOfVoice', 'citationRate', 'sentiment']);
    expect(score.range!.low).toBeLessThan(score.score!);
    expect(score.range!.high).toBeGreaterThan(score.score!);
  });

  it('leaves out what cannot be measured, says why, and scales the other weights up', () => {
    // No competitors, no citations, no sentiment: the mention rate alone.
    const brand = { ...ZERO, checked: 4, mentioned: 1 };
    const score = compositeScore(componentsOf(brand, 0), 0);
    expect(score.score).toBe(25);
    expect(score.basedOn).toEqual(['mentionRate']);
    expect(score.missing).toEqual([
      { component: 'shareOfVoice', reason: 'no competitors tracked' },
      { component: 'citationRate', reason: 'no answer cited any source' },
      { component: 'sentiment', reason: 'no answer naming the brand has a sentiment' },
    ]);
  });

  it('has no score without a single answer checked, failed checks included', () => {
    const score = compositeScore(componentsOf({ ...ZERO, failed: 5 }, 0), 3);
    expect(score).toMatchObject({ score: null, range: null, basedOn: [], reason: expect.stringContaining('no answers checked') });
  });
});
