import type { ProviderSlots } from '../../limits/store.js';
import { type AnswerEngine, EngineError } from './engine.js';

/** The engine behind its provider's concurrency limit. */
export function limitedEngine(engine: AnswerEngine, limit: ProviderSlots): AnswerEngine {
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
    ...(engine.fromSerp ? { fromSerp: engine.fromSerp } : {}),
    ...(engine.close ? { close: () => engine.close!() } : {}),
    async ask(query, options) {
      try {
        return await engine.ask(query, options);
      } catch (error) {
        if (error instanceof EngineError) throw error;
        throw new EngineError(engine.name, 'provider_error', `${engine.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
