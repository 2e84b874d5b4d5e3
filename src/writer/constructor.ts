import type { WriterSettings, WriterTuning } from '../integrations/openai/chatCompletionsWriter.js';
import type { WriterModel } from './model.js';

/** How the writer's declaration opens it (`create`): its settings as its `read` gives them and any tuning of its timeouts and retries. */
export type WriterConstructor = (settings: WriterSettings, tuning: Partial<WriterTuning> | undefined) => WriterModel & { close(): Promise<void> };
