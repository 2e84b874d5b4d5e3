import { failureOf } from '../../support/failure.js';
import { EngineError } from '../../../src/visibility/engines/engine.js';
import type { EngineTuning } from '../../../src/visibility/engines/providerHttp.js';

/** Short timeouts and backoff, so retries and timeouts take milliseconds. */
export const TUNING: EngineTuning = { timeoutMs: 2000, retries: 2, backoffMs: 5, concurrency: 4 };

/** The EngineError an answer fails with (the test fails if it answers). */
export const failure = (promise: Promise<unknown>): Promise<EngineError> => failureOf(promise, EngineError);
