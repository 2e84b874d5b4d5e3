import { setTimeout as sleep } from 'node:timers/promises';
import type { LimiterStore, LimitRule, ProviderSlots } from './store.js';

/**
 * A provider's requests-per-minute allowance as counted windows as short as it allows (a second from 60 a minute, 10
 * seconds from 6, else the minute), each its share rounded down, so that a minute's worth never arrives as one burst.
 */
export function paceRule(provider: string, perMinute: number): LimitRule {
  const durationSeconds = perMinute >= 60 ? 1 : perMinute >= 6 ? 10 : 60;
  return { prefix: `pace:${provider}`, points: Math.floor((perMinute * durationSeconds) / 60), durationSeconds };
}

/**
 * Calls to one outside provider: at most `concurrency` in flight and `perMinute` started a minute, both counted in the
 * shared store so that every instance together stays within the provider's limits. A call waits for a slot, then for
 * its turn in the current window.
 */
export function providerLimits(store: Pick<LimiterStore, 'slots' | 'limiter'>, provider: string, limits: { concurrency: number; perMinute: number }): ProviderSlots {
  const slots = store.slots(provider, limits.concurrency);
  const pace = store.limiter(paceRule(provider, limits.perMinute));
  const nextTurn = async () => {
    for (;;) {
      const state = await pace.consume(provider);
      if (state.allowed) return;
      // Jittered, so that callers waiting on several instances do not all ask again at the same moment.
      await sleep(state.resetMs + Math.random() * 250);
    }
  };
  return {
    run: (task) =>
      slots.run(async () => {
        await nextTurn();
        return task();
      }),
  };
}
