import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/database.js';
import { loadConfig } from '../../../src/config.js';
import { openSocialSources, SOURCE_SETTINGS } from '../../../src/social/sources/index.js';
import type { SourcePauses } from '../../../src/social/sources/pauses.js';
import { SOCIAL_SOURCE_NAMES } from '../../../src/social/sources/source.js';
import { excerptOf, plainText, titleOf } from '../../../src/social/sources/text.js';
import { pausesOnTestDatabase, TUNING } from './support.js';

let database: DatabaseHandle;
let pauses: SourcePauses;

beforeAll(async () => {
  ({ database, pauses } = await pausesOnTestDatabase());
});

afterAll(async () => {
  await database.close();
});

describe('the social sources\' settings', () => {
  it('turns Hacker News and Stack Exchange on by default, Bluesky and Reddit only with their accounts, and refuses half a pair or an unknown source', () => {
    const defaults = loadConfig({}).socialSources;
    expect(defaults).toEqual({
      hackernews: { baseUrl: 'https://hn.algolia.com/api/v1' },
      stackexchange: { baseUrl: 'https://api.stackexchange.com/2.3', key: undefined, sites: ['stackoverflow'] },
      bluesky: undefined,
      reddit: undefined,
    });
    const configured = loadConfig({ SOCIAL_SOURCES_OFF: 'hackernews', STACKEXCHANGE_SITES: 'superuser, webapps', BLUESKY_IDENTIFIER: 'me.bsky.social', BLUESKY_APP_PASSWORD: 'abcd-efgh', REDDIT_CLIENT_ID: 'id', REDDIT_CLIENT_SECRET: 'secret' }).socialSources;
    expect(configured.hackernews).toBeUndefined();
    expect(configured.stackexchange?.sites).toEqual(['superuser', 'webapps']);
    expect(configured.bluesky).toEqual({ serviceUrl: 'https://bsky.social', identifier: 'me.bsky.social', appPassword: 'abcd-efgh' });
    expect(configured.reddit).toMatchObject({ clientId: 'id', clientSecret: 'secret', apiUrl: 'https://oauth.reddit.com' });
    expect(() => loadConfig({ BLUESKY_IDENTIFIER: 'me' })).toThrow('BLUESKY_APP_PASSWORD: set BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD together, or neither');
    expect(() => loadConfig({ SOCIAL_SOURCES_OFF: 'twitter' })).toThrow('SOCIAL_SOURCES_OFF: "twitter" is not a source (hackernews, stackexchange, bluesky, reddit)');
    expect(() => loadConfig({ STACKEXCHANGE_SITES: 'stack overflow' })).toThrow(/^STACKEXCHANGE_SITES: "stack overflow" is not a Stack Exchange site name/);
  });
});

describe('openSocialSources', () => {
  it('opens one adapter per configured source, and says what turns on each', async () => {
    const some = openSocialSources({ hackernews: { baseUrl: 'https://hn.example' }, stackexchange: undefined, bluesky: { serviceUrl: 'https://pds.example', identifier: 'a', appPassword: 'b' }, reddit: undefined }, pauses, TUNING);
    expect(Object.keys(some).sort()).toEqual(['bluesky', 'hackernews']);
    expect(some.hackernews!.name).toBe('hackernews');
    expect(some.bluesky!.name).toBe('bluesky');
    const all = openSocialSources(
      {
        hackernews: { baseUrl: 'https://hn.example' },
        stackexchange: { baseUrl: 'https://se.example', key: undefined, sites: ['stackoverflow'] },
        bluesky: { serviceUrl: 'https://pds.example', identifier: 'a', appPassword: 'b' },
        reddit: { authUrl: 'https://r.example', apiUrl: 'https://oauth.r.example', clientId: 'c', clientSecret: 'd', userAgent: 'ua' },
      },
      pauses,
    );
    expect(Object.values(all).map((source) => source.name)).toEqual(['hackernews', 'stackexchange', 'bluesky', 'reddit']);
    await Promise.all([...Object.values(some), ...Object.values(all)].map((source) => source.close()));

    for (const name of SOCIAL_SOURCE_NAMES) expect(SOURCE_SETTINGS[name]).not.toBe('');
    expect(SOURCE_SETTINGS.bluesky).toBe('BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD');
  });
});

describe('text clean-up', () => {
  it('turns HTML into plain lines with entities decoded', () => {
    expect(plainText('<p>One &amp; two<br>three&#x27;s <a href="x">link</a></p><script>alert(1)</script><p>  four&nbsp;&#128512;  </p>')).toBe("One & two\nthree's link\nfour 😀");
    expect(plainText('a &bogus; b')).toBe('a &bogus; b');
  });

  it('cuts excerpts to 1,000 and titles to 200 characters, a title from the first line when there is none', () => {
    expect(excerptOf('x'.repeat(1500))).toHaveLength(1000);
    expect(excerptOf('short')).toBe('short');
    expect(titleOf(undefined, '\nFirst line\nsecond')).toBe('First line');
    expect(titleOf('  Given  title ', 'text')).toBe('Given title');
    expect(titleOf(null, 'y'.repeat(300))).toHaveLength(200);
  });
});
