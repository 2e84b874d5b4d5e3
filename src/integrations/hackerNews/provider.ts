import { declareProvider, httpUrl, readValue, type Environment } from '../kit/declaration.js';
import type { SocialSourceConstructor } from '../../social/sources/constructor.js';
import { HackerNewsSource, type HackerNewsSettings } from './socialSource.js';

/** Hacker News through Algolia's search API: no key, so it is on unless SOCIAL_SOURCES_OFF lists it. */
export const HACKER_NEWS = declareProvider({
  id: 'hackernews',
  family: 'social source',
  label: 'Hacker News',
  turnedOnBy: [],
  settings: [{ names: ['HACKERNEWS_BASE_URL'], default: '`https://hn.algolia.com/api/v1`', meaning: "Algolia's HN Search API, for social threads (no key)" }],
  create: ((settings, pauses, tuning) => new HackerNewsSource(settings, pauses, tuning)) satisfies SocialSourceConstructor<HackerNewsSettings>,
  read(env: Environment): HackerNewsSettings {
    return { baseUrl: readValue(env, 'HACKERNEWS_BASE_URL', httpUrl, 'https://hn.algolia.com/api/v1') };
  },
});
