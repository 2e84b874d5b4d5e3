import type { SocialSourceName } from '../../../db/schema.js';
import type { SocialSourceSettings } from '../../config.js';
import { BlueskySource } from '../../integrations/bluesky/socialSource.js';
import { HackerNewsSource } from '../../integrations/hackerNews/socialSource.js';
import { DEFAULT_SOURCE_TUNING, type SourceTuning } from './http.js';
import type { SourcePauses } from './pauses.js';
import { RedditSource } from '../../integrations/reddit/socialSource.js';
import type { SocialSource } from './source.js';
import { StackExchangeSource } from '../../integrations/stackExchange/socialSource.js';
import { BLUESKY } from '../../integrations/bluesky/provider.js';
import { HACKER_NEWS } from '../../integrations/hackerNews/provider.js';
import { nameList } from '../../integrations/kit/declaration.js';
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
  if (settings.hackernews !== undefined) sources.hackernews = new HackerNewsSource(settings.hackernews, pauses, tuning);
  if (settings.stackexchange !== undefined) sources.stackexchange = new StackExchangeSource(settings.stackexchange, pauses, tuning);
  if (settings.bluesky !== undefined) sources.bluesky = new BlueskySource(settings.bluesky, pauses, tuning);
  if (settings.reddit !== undefined) sources.reddit = new RedditSource(settings.reddit, pauses, tuning);
  return sources;
}
