import { type AnswerEngine, EngineError } from './engine.js';

/** At most `limit` tasks at once; the others wait their turn, first come first served. */
export class Semaphore {
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

/** The engine behind its provider's concurrency limit. */
export function limitedEngine(engine: AnswerEngine, limit: Semaphore): AnswerEngine {
  return onlyEngineErrors({
    name: engine.name,
    ask: (query, options) => limit.run(() => engine.ask(query, options)),
    ...(engine.close ? { close: () => engine.close!() } : {}),
  });
}

/** Whatever stops an answer reaches the caller as an EngineError, so a check records a failure class for every answer it did not get. */
export function onlyEngineErrors(engine: AnswerEngine): AnswerEngine {
  return {
    name: engine.name,
    ...(engine.close ? { close: () => engine.close!() } : {}),
    async ask(query, options) {
      try {
        return await engine.ask(query, options);
      } catch (error) {
        if (error instanceof EngineError) throw error;
        throw new EngineError('provider_error', `${engine.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
