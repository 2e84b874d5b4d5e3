import { answerEngine } from '../kit/answerEngine.js';
import { declareProvider, httpUrl, readTogether, readValue, type Environment } from '../kit/declaration.js';
import type { AnswerEngineConstructor } from '../../visibility/engines/constructor.js';
import { GeminiEngine } from './geminiEngine.js';
import type { WebAnalyticsConstructor } from '../../analytics/providers/constructor.js';
import { refreshGa4AccessToken } from '../../analytics/providers/ga4Grant.js';
import { PROVIDER_LABELS } from '../../analytics/providers/labels.js';
import { Ga4Provider, type GoogleAnalyticsSettings } from './analytics.js';
import type { SearchConsoleConstructor } from '../../visibility/searchConsole/constructor.js';
import { SearchConsoleClient, type SearchConsoleSettings } from './searchConsole.js';

/** Gemini tier 1 (its lowest per-model figure); grounding with Google Search beyond the free daily allowance. */
export const GEMINI = answerEngine({
  engine: 'gemini',
  label: 'Gemini',
  vendor: 'Google',
  api: 'Gemini with Google Search grounding',
  endpoint: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', model: 'gemini-2.5-flash' },
  requestsPerMinute: 150,
  price: { usdPerCall: 0.035, basis: 'Gemini grounding with Google Search: $35 per 1,000 grounded prompts beyond the free daily allowance, plus tokens' },
  create: ((settings, tuning) => new GeminiEngine(settings, tuning)) satisfies AnswerEngineConstructor,
});

const GOOGLE_AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SEARCH_CONSOLE_CLIENT = { names: ['GSC_CLIENT_ID', 'GSC_CLIENT_SECRET'] } as const;
const ANALYTICS_CLIENT = { names: ['GA4_CLIENT_ID', 'GA4_CLIENT_SECRET'] } as const;

/** Google Search Console through the OAuth web flow, with the operator's client. */
export const SEARCH_CONSOLE = declareProvider({
  id: 'searchConsole',
  family: 'search console',
  label: 'Search Console',
  turnedOnBy: SEARCH_CONSOLE_CLIENT.names,
  settings: [
    {
      names: SEARCH_CONSOLE_CLIENT.names,
      default: '—',
      meaning: 'Google OAuth client (web application) for connecting Search Console in the dashboard; its redirect URI is `<PUBLIC_URL>/dashboard/search-console/callback`',
      secrets: ['GSC_CLIENT_SECRET'],
    },
    { names: ['GSC_AUTH_URL', 'GSC_TOKEN_URL', 'GSC_API_BASE_URL'], default: "Google's", meaning: "Google's authorization, token and Search Console API endpoints (overridable for testing)" },
  ],
  create: ((settings, accessToken) => new SearchConsoleClient(settings, accessToken)) satisfies SearchConsoleConstructor,
  read(env: Environment): SearchConsoleSettings | undefined {
    const client = readTogether(env, SEARCH_CONSOLE_CLIENT);
    if (client === undefined) return undefined;
    const [clientId, clientSecret] = client;
    return {
      clientId,
      clientSecret,
      authUrl: readValue(env, 'GSC_AUTH_URL', httpUrl, GOOGLE_AUTH_URL),
      tokenUrl: readValue(env, 'GSC_TOKEN_URL', httpUrl, GOOGLE_TOKEN_URL),
      apiBaseUrl: readValue(env, 'GSC_API_BASE_URL', httpUrl, 'https://searchconsole.googleapis.com'),
    };
  },
});

/**
 * Google Analytics 4 through the OAuth web flow: GA4_CLIENT_ID and GA4_CLIENT_SECRET, or else the Search Console client:
 * one Google OAuth client can serve both once the Analytics redirect URI is registered on it and the Analytics APIs
 * are enabled in its project.
 */
export const GOOGLE_ANALYTICS = declareProvider({
  id: 'googleAnalytics',
  family: 'web analytics',
  label: PROVIDER_LABELS.ga4,
  turnedOnBy: ANALYTICS_CLIENT.names,
  settings: [
    {
      names: ANALYTICS_CLIENT.names,
      default: 'the `GSC_*` client',
      meaning:
        "Google OAuth client for connecting Google Analytics 4 in the dashboard; redirect URI `<PUBLIC_URL>/dashboard/site-analytics/ga4/callback`. `GA4_AUTH_URL`, `GA4_TOKEN_URL`, `GA4_ADMIN_API_URL`, `GA4_DATA_API_URL` override Google's endpoints (testing)",
      secrets: ['GA4_CLIENT_SECRET'],
    },
  ],
  create: ((connection, deps) => {
    const google = deps.google();
    // One refresh per provider built: a provider serves one read, well within the hour an access token lasts.
    let accessToken: Promise<string> | undefined;
    return new Ga4Provider(
      { propertyId: connection.propertyId, accessToken: () => (accessToken ??= refreshGa4AccessToken(google, connection.refreshToken)), baseUrl: google.dataApiUrl, siteHost: deps.siteHost },
      deps.outbound,
    );
  }) satisfies WebAnalyticsConstructor<'ga4'>,
  read(env: Environment): GoogleAnalyticsSettings | undefined {
    const own = readTogether(env, ANALYTICS_CLIENT);
    const searchConsole = SEARCH_CONSOLE.read(env);
    const [clientId, clientSecret] = own ?? (searchConsole === undefined ? [] : [searchConsole.clientId, searchConsole.clientSecret]);
    if (clientId === undefined || clientSecret === undefined) return undefined;
    return {
      clientId,
      clientSecret,
      authUrl: readValue(env, 'GA4_AUTH_URL', httpUrl, GOOGLE_AUTH_URL),
      tokenUrl: readValue(env, 'GA4_TOKEN_URL', httpUrl, GOOGLE_TOKEN_URL),
      adminApiUrl: readValue(env, 'GA4_ADMIN_API_URL', httpUrl, 'https://analyticsadmin.googleapis.com'),
      dataApiUrl: readValue(env, 'GA4_DATA_API_URL', httpUrl, 'https://analyticsdata.googleapis.com'),
    };
  },
});
