import type { SocialSourceName } from '../../../db/schema.js';
import type { SocialSourceSettings } from '../../config.js';
import { DEFAULT_SOURCE_TUNING, type SourceTuning } from './http.js';
import type { SourcePauses } from './pauses.js';
import type { SocialSource } from './source.js';
import type { SocialSourceConstructor } from './constructor.js';
import { BLUESKY } from '../../integrations/bluesky/provider.js';
import { HACKER_NEWS } from '../../integrations/hackerNews/provider.js';
import { nameList } from '../../integrations/kit/declaration.js';
import { providersOf } from '../../integrations/providers.js';
import { REDDIT } from '../../integrations/reddit/provider.js';
import { STACK_EXCHANGE } from '../../integrations/stackExchange/provider.js';

/** What an operator sets to configure (or turn on) each source, for "not configured" answers. */
export const SOURCE_SETTINGS: Record<SocialSourceName, string> = {
  hackernews: `nothing: ${HACKER_NEWS.label} is on unless SOCIAL_SOURCES_OFF lists ${HACKER_NEWS.id}`,
  stackexchange: `STACKEXCHANGE_SITES (and STACKEXCHANGE_KEY for 10,000 requests a day); on unless SOCIAL_SOURCES_OFF lists ${STACK_EXCHANGE.id}`,
  bluesky: nameList(BLUESKY.turnedOnBy),
  reddit: `${nameList(REDDIT.turnedOnBy)} (an app Reddit approved), and REDDIT_USER_AGENT`,
};

/** One adapter per configured source; the caller closes them. */
export function openSocialSources(settings: SocialSourceSettings, pauses: SourcePauses, tuning: SourceTuning = DEFAULT_SOURCE_TUNING): Partial<Record<SocialSourceName, SocialSource>> {
  const sources: Partial<Record<SocialSourceName, SocialSource>> = {};
  for (const provider of providersOf('social source')) {
    const own = settings[provider.id];
    // Each provider's settings are those its own `read` gave; TypeScript cannot pair a union's members with them.
    const create = provider.create as SocialSourceConstructor<typeof own>;
    if (own !== undefined) sources[provider.id] = create(own, pauses, tuning);
  }
  return sources;
}
