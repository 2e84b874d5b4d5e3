import { declareProvider, httpUrl, readRequestsPerMinute, readValue, setting, type Environment } from '../kit/declaration.js';
import type { AnswerEngineConstructor } from '../../visibility/engines/constructor.js';
import { BingCopilotSearchEngine, type CopilotSettings } from './bingCopilotSearch.js';

const SERPAPI = 'https://serpapi.com';
/** SerpApi's hourly throughput on its smallest plan (1,000 an hour); each API's price on its Developer plan. */
const LIMITS = {
  requestsPerMinute: { setting: 'ENGINE_COPILOT_RPM', default: 16 },
  prices: {
    'serpapi.com': { usdPerCall: 0.015, basis: 'SerpApi Developer plan: $75 for 5,000 searches a month' },
    'www.searchapi.io': { usdPerCall: 0.004, basis: 'SearchApi Developer plan: $40 for 10,000 searches a month' },
  },
};

/** Copilot asked on its own through a SerpApi- or SearchApi-compatible `engine=bing_copilot` endpoint: by the key (SerpApi) or a base URL. */
export const COPILOT_SEARCH = declareProvider({
  id: 'copilot',
  family: 'copilot search',
  label: 'Copilot',
  turnedOnBy: ['ENGINE_COPILOT_API_KEY', 'ENGINE_COPILOT_BASE_URL'],
  settings: [
    {
      names: ['ENGINE_COPILOT_API_KEY', 'ENGINE_COPILOT_BASE_URL'],
      default: `\`${SERPAPI}\``,
      meaning:
        "Copilot asked on its own through a SerpApi- or SearchApi-compatible `engine=bing_copilot` API (`https://www.searchapi.io/api/v1` for SearchApi); either setting turns it on, and it then takes Copilot over from the SERP provider's Bing page",
      secrets: ['ENGINE_COPILOT_API_KEY'],
    },
    {
      names: ['ENGINE_COPILOT_RPM'],
      default: `\`${LIMITS.requestsPerMinute.default}\``,
      meaning: "Requests it may be sent per minute, by all instances together (the smallest plan's published throughput: raise it to your plan's); see [Weekly checks within the providers' limits](visibility.md)",
    },
  ],
  limits: LIMITS,
  create: ((settings, tuning) => new BingCopilotSearchEngine(settings, tuning)) satisfies AnswerEngineConstructor<CopilotSettings>,
  read(env: Environment): CopilotSettings | undefined {
    const apiKey = setting(env, 'ENGINE_COPILOT_API_KEY');
    if (apiKey === undefined && setting(env, 'ENGINE_COPILOT_BASE_URL') === undefined) return undefined;
    return { baseUrl: readValue(env, 'ENGINE_COPILOT_BASE_URL', httpUrl, SERPAPI), apiKey, perMinute: readRequestsPerMinute(env, LIMITS.requestsPerMinute) };
  },
});
