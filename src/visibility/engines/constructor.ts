import type { EngineSettings } from '../../integrations/kit/answerEngine.js';
import type { AnswerEngine } from './engine.js';
import type { EngineTuning } from './providerHttp.js';

/**
 * How an answer engine's declaration opens it (`create`): its settings as its `read` gives them and the tuning. Its
 * pace and concurrency are not its own: `createAnswerEngines` wraps every engine alike.
 */
export type AnswerEngineConstructor<Settings = EngineSettings> = (settings: Settings, tuning: EngineTuning) => AnswerEngine;
