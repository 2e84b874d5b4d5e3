import { declareProvider, httpUrl, nameList, readRequestsPerMinute, readTogether, readValue, wholeNumber, type Environment } from '../kit/declaration.js';
import type { BacklinkIndexConstructor } from '../../backlinks/index/constructor.js';
import type { SerpConstructor } from '../../visibility/serp/constructor.js';
import { createBacklinkIndex, type BacklinkIndexSettings } from './backlinkIndex.js';
import { createSerpClient, type SerpSettings } from './serp.js';

const SERP_ACCOUNT = { names: ['SERP_BASE_URL', 'SERP_LOGIN', 'SERP_PASSWORD'] } as const;
const BACKLINKS_ACCOUNT = { names: ['BACKLINKS_BASE_URL', 'BACKLINKS_LOGIN', 'BACKLINKS_PASSWORD'], note: '(then the SERP_* account serves)' } as const;
/** DataForSEO's per-account limit. */
const DATAFORSEO_REQUESTS_PER_MINUTE = 2000;

/** DataForSEO live SERP: $0.002 for the first page of 10 results, each further page 75 % of that; rank checks read 30. */
const LIVE_SERP_PRICE = { usdPerCall: 0.002 + 2 * 0.0015, basis: 'DataForSEO live SERP, 30 results: $0.002 for the first page, $0.0015 for each further page' };

const SERP_LIMITS = { requestsPerMinute: { setting: 'SERP_RPM', default: DATAFORSEO_REQUESTS_PER_MINUTE }, prices: { 'api.dataforseo.com': LIVE_SERP_PRICE } };
const BACKLINKS_LIMITS = { requestsPerMinute: { setting: 'BACKLINKS_RPM', default: DATAFORSEO_REQUESTS_PER_MINUTE } };

/** A SERP data provider with a DataForSEO-compatible API: Google and Bing ranks, Google's AI overviews, Copilot from Bing's SERP. */
export const SERP = declareProvider({
  id: 'serp',
  family: 'serp',
  label: 'The SERP provider',
  turnedOnBy: SERP_ACCOUNT.names,
  settings: [
    {
      names: SERP_ACCOUNT.names,
      default: '—',
      meaning:
        "A SERP data provider with a DataForSEO-compatible API (all three together): Google and Bing ranks (top 30), Google AI overviews and Copilot's answers read from those same pages, and finding a competitor's website from its name",
      secrets: ['SERP_PASSWORD'],
    },
    {
      names: ['SERP_RPM'],
      default: `\`${DATAFORSEO_REQUESTS_PER_MINUTE}\``,
      meaning: "Requests the SERP provider may be sent per minute, by all instances together (the provider's published limit: raise it to your account's); see [Weekly checks within the providers' limits](visibility.md)",
    },
  ],
  limits: SERP_LIMITS,
  create: createSerpClient satisfies SerpConstructor,
  read(env: Environment): SerpSettings | undefined {
    const account = readTogether(env, SERP_ACCOUNT);
    if (account === undefined) return undefined;
    const [baseUrl, login, password] = account;
    return { baseUrl: readValue(env, 'SERP_BASE_URL', httpUrl, baseUrl), login, password, perMinute: readRequestsPerMinute(env, SERP_LIMITS.requestsPerMinute) };
  },
});

/** A backlink data provider with a DataForSEO-compatible API: BACKLINKS_* (all three or none), else the SERP provider's account. */
export const BACKLINK_INDEX = declareProvider({
  id: 'backlinkIndex',
  family: 'backlink index',
  label: 'The backlink index',
  turnedOnBy: BACKLINKS_ACCOUNT.names,
  settings: [
    {
      names: BACKLINKS_ACCOUNT.names,
      default: 'the `SERP_*` account',
      meaning:
        'A backlink data provider with a DataForSEO-compatible Backlinks API (all three together; `https://api.dataforseo.com`, or `https://sandbox.dataforseo.com` for its free dummy data). Unset: the SERP provider\'s account serves, when `SERP_*` is set. Neither: no backlink index (see [Backlink index](backlinks.md))',
      secrets: ['BACKLINKS_PASSWORD'],
    },
    {
      names: ['BACKLINKS_RPM'],
      default: `\`${DATAFORSEO_REQUESTS_PER_MINUTE}\``,
      meaning: "Requests a minute the backlink index's own account may be sent, by all instances together. On the SERP provider's account the index shares `SERP_RPM` and its concurrency with the SERP client instead",
    },
    {
      names: ['BACKLINKS_MAX_ROWS'],
      default: '`1000`',
      meaning: 'Backlinks read per workspace and sync at most, 1 to 1,000,000 (DataForSEO charges by rows read), the best-ranked linking domains first',
    },
  ],
  limits: BACKLINKS_LIMITS,
  create: createBacklinkIndex satisfies BacklinkIndexConstructor,
  read(env: Environment): BacklinkIndexSettings | undefined {
    const maxRows = readValue(env, 'BACKLINKS_MAX_ROWS', wholeNumber(1, 1_000_000), '1000');
    const perMinute = readRequestsPerMinute(env, BACKLINKS_LIMITS.requestsPerMinute);
    const account = readTogether(env, BACKLINKS_ACCOUNT);
    if (account === undefined) {
      const serp = SERP.read(env);
      return serp === undefined ? undefined : { ...serp, sharesSerpAccount: true, maxRows };
    }
    const [baseUrl, login, password] = account;
    return { baseUrl: readValue(env, 'BACKLINKS_BASE_URL', httpUrl, baseUrl), login, password, perMinute, sharesSerpAccount: false, maxRows };
  },
});

/** The settings that turn the backlink index on, as error messages name them. */
export const BACKLINK_INDEX_SETTINGS = `${nameList(BACKLINK_INDEX.turnedOnBy)} (or the SERP provider's ${nameList(SERP.turnedOnBy)})`;
