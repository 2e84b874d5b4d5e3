import type { SourceTuning } from './http.js';
import type { SourcePauses } from './pauses.js';
import type { SocialSource } from './source.js';

/** How a social source's declaration opens it (`create`): its settings as its `read` gives them, the shared pauses and the tuning. */
export type SocialSourceConstructor<Settings> = (settings: Settings, pauses: SourcePauses, tuning: SourceTuning) => SocialSource;
