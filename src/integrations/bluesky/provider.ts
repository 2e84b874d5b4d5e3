import { declareProvider, httpUrl, readTogether, readValue, type Environment } from '../kit/declaration.js';
import type { SocialSourceConstructor } from '../../social/sources/constructor.js';
import { BlueskySource, type BlueskySettings } from './socialSource.js';

const ACCOUNT = { names: ['BLUESKY_IDENTIFIER', 'BLUESKY_APP_PASSWORD'], wording: 'missing' } as const;

/** Bluesky's searchPosts, signed in with an app password (a logged-out search returns one page only). */
export const BLUESKY = declareProvider({
  id: 'bluesky',
  family: 'social source',
  label: 'Bluesky',
  turnedOnBy: ACCOUNT.names,
  settings: [
    {
      names: [...ACCOUNT.names, 'BLUESKY_SERVICE_URL'],
      default: '—, —, `https://bsky.social`',
      meaning: 'Bluesky account (handle or email) and an app password made for Sightline (both or neither), and its PDS; turns on Bluesky in social threads',
      secrets: ['BLUESKY_APP_PASSWORD'],
    },
  ],
  create: ((settings, pauses, tuning) => new BlueskySource(settings, pauses, tuning)) satisfies SocialSourceConstructor<BlueskySettings>,
  read(env: Environment): BlueskySettings | undefined {
    const account = readTogether(env, ACCOUNT);
    if (account === undefined) return undefined;
    const [identifier, appPassword] = account;
    return { serviceUrl: readValue(env, 'BLUESKY_SERVICE_URL', httpUrl, 'https://bsky.social'), identifier, appPassword };
  },
});
