import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const settings = (env: Record<string, string>) => {
  const { shutdownGraceMs, shutdownReadinessDelayMs } = loadConfig(env);
  return { shutdownGraceMs, shutdownReadinessDelayMs };
};

describe('the shutdown settings', () => {
  it('keep accepting for 5 s of a 10 s grace by default, and never longer than the grace', () => {
    expect(settings({})).toEqual({ shutdownGraceMs: 10_000, shutdownReadinessDelayMs: 5000 });
    expect(settings({ SHUTDOWN_READINESS_DELAY_MS: '2500' })).toEqual({ shutdownGraceMs: 10_000, shutdownReadinessDelayMs: 2500 });
    expect(settings({ SHUTDOWN_READINESS_DELAY_MS: '0' })).toEqual({ shutdownGraceMs: 10_000, shutdownReadinessDelayMs: 0 });
    expect(settings({ SHUTDOWN_GRACE_MS: '3000' })).toEqual({ shutdownGraceMs: 3000, shutdownReadinessDelayMs: 3000 });
  });

  it('refuse a delay longer than the grace, negative or not whole', () => {
    expect(() => settings({ SHUTDOWN_GRACE_MS: '3000', SHUTDOWN_READINESS_DELAY_MS: '4000' })).toThrow(
      'SHUTDOWN_READINESS_DELAY_MS: must not be longer than SHUTDOWN_GRACE_MS (3000), which bounds the whole stop; got "4000"',
    );
    expect(() => settings({ SHUTDOWN_READINESS_DELAY_MS: '-1' })).toThrow('SHUTDOWN_READINESS_DELAY_MS: must be a whole number from 0 to 600000, got "-1"');
    expect(() => settings({ SHUTDOWN_READINESS_DELAY_MS: '1.5' })).toThrow('SHUTDOWN_READINESS_DELAY_MS: must be a whole number from 0 to 600000, got "1.5"');
  });
});
