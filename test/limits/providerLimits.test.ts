import { describe, expect, it } from 'vitest';
import { paceRule } from '../../src/limits/providerLimits.js';

describe('paceRule', () => {
  it('counts a per-minute allowance in the shortest window that keeps its share whole, never above the minute', () => {
    expect(paceRule('engine:chatgpt', 500)).toEqual({ prefix: 'pace:engine:chatgpt', points: 8, durationSeconds: 1 });
    expect(paceRule('engine:perplexity', 50)).toEqual({ prefix: 'pace:engine:perplexity', points: 8, durationSeconds: 10 });
    expect(paceRule('engine:copilot', 5)).toEqual({ prefix: 'pace:engine:copilot', points: 5, durationSeconds: 60 });
    for (const perMinute of [1, 5, 6, 16, 50, 59, 60, 150, 2000]) {
      const rule = paceRule('p', perMinute);
      expect((rule.points * 60) / rule.durationSeconds, String(perMinute)).toBeLessThanOrEqual(perMinute);
      expect(rule.points, String(perMinute)).toBeGreaterThanOrEqual(1);
    }
  });
});
