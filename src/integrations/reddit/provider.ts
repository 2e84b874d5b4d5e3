import { declareProvider, httpUrl, readTogether, readValue, setting, type Environment } from '../kit/declaration.js';
import type { SocialSourceConstructor } from '../../social/sources/constructor.js';
import { RedditSource, type RedditSettings } from './socialSource.js';

const APP = { names: ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'], wording: 'missing' } as const;
const USER_AGENT = 'server:sightline:1.0 (self-hosted Sightline)';

/** Reddit only with the operator's approved app (its Responsible Builder Policy): app-only OAuth. */
export const REDDIT = declareProvider({
  id: 'reddit',
  family: 'social source',
  label: 'Reddit',
  turnedOnBy: APP.names,
  settings: [
    {
      names: [...APP.names, 'REDDIT_USER_AGENT'],
      default: `—, —, \`${USER_AGENT}\``,
      meaning:
        'An app Reddit approved (both or neither; see [Social sources](social.md)); turns on Reddit in social threads. The User-Agent goes on every call; Reddit asks for `<platform>:<app id>:<version> (by /u/<username>)`. `REDDIT_AUTH_URL` (`https://www.reddit.com`) and `REDDIT_API_URL` (`https://oauth.reddit.com`) override the endpoints',
      secrets: ['REDDIT_CLIENT_SECRET'],
    },
  ],
  create: ((settings, pauses, tuning) => new RedditSource(settings, pauses, tuning)) satisfies SocialSourceConstructor<RedditSettings>,
  read(env: Environment): RedditSettings | undefined {
    const app = readTogether(env, APP);
    if (app === undefined) return undefined;
    const [clientId, clientSecret] = app;
    return {
      authUrl: readValue(env, 'REDDIT_AUTH_URL', httpUrl, 'https://www.reddit.com'),
      apiUrl: readValue(env, 'REDDIT_API_URL', httpUrl, 'https://oauth.reddit.com'),
      clientId,
      clientSecret,
      userAgent: setting(env, 'REDDIT_USER_AGENT') ?? USER_AGENT,
    };
  },
});
