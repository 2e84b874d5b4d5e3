import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Limiter, type LimiterStore, type LimitRule, type ProviderSlots } from './store.js';

/** At most `limit` tasks at once; the others wait their turn, first come first served. */
export class Semaphore implements ProviderSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot take it in between.
      const next = this.waiting.shift();
      if (next === undefined) this.active--;
      else next();
    }
  }
}

/** The embedded default: counters and slots in this process, which is then the only instance. */
export class MemoryLimiterStore implements LimiterStore {
  readonly name = 'memory';
  private readonly limiters = new Map<string, Limiter>();
  private readonly semaphores = new Map<string, Semaphore>();

  limiter(rule: LimitRule): Limiter {
    return cached(this.limiters, rule, () => new Limiter(rule, new RateLimiterMemory({ keyPrefix: rule.prefix, points: rule.points, duration: rule.durationSeconds }), this.name));
  }

  slots(provider: string, limit: number): ProviderSlots {
    let semaphore = this.semaphores.get(provider);
    if (semaphore === undefined) {
      semaphore = new Semaphore(limit);
      this.semaphores.set(provider, semaphore);
    }
    return semaphore;
  }

  async close(): Promise<void> {}
}

/** One counter per prefix: a second rule with the same prefix must be the same rule, or the counts would mix. */
export function cached(limiters: Map<string, Limiter>, rule: LimitRule, create: () => Limiter): Limiter {
  const known = limiters.get(rule.prefix);
  if (known === undefined) {
    const limiter = create();
    limiters.set(rule.prefix, limiter);
    return limiter;
  }
  if (known.rule.points !== rule.points || known.rule.durationSeconds !== rule.durationSeconds) {
    throw new Error(`limit ${rule.prefix}: declared twice with different numbers`);
  }
  return known;
}
