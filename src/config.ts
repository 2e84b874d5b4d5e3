import { isIP } from 'node:net';
import { CLOUDFLARE_ENDPOINTS, type CloudflareEndpoints } from './integrations/cloudflare/cdn.js';
import { parseSealingKey } from './credentials/sealed.js';
import { SOCIAL_SOURCE_NAMES } from './social/sources/source.js';

/** Settings from the environment, read once at start. The configuration table in docs/guide/configuration.md mirrors this file. */
export interface CounterLimits {
  perAddressPerMinute: number;
  perSitePerMinute: number;
}

export interface Config {
  port: number;
  host: string;
  /** Public base URL without a trailing slash: used in links handed to people and agents. */
  publicUrl: string;
  databaseUrl: string | undefined;
  /** Host names accepted in the Host header (DNS-rebinding protection). */
  allowedHosts: string[];
  /** Cross-origin pages allowed to call /mcp; same-origin requests and requests without Origin always pass. */
  allowedOrigins: string[];
  bootstrap: { workspaceName: string; siteUrl: string };
  /**
   * Development only: /mcp requests without credentials act with every scope in the first workspace. For the
   * official conformance suite, which cannot send a token; refused unless the service is bound to loopback.
   */
  mcpDevNoAuth: boolean;
  /** How often an open MCP subscriptions/listen stream looks in the database for changes to tell its client. */
  mcpListenPollMs: number;
  /** Outbound requests to addresses others choose (client metadata documents, webhooks, customer pages): private targets allowed? Local testing only. */
  allowPrivateTargets: boolean;
  /** The OpenAI-compatible chat-completions server that writes; undefined when not configured. */
  writer: WriterSettings | undefined;
  /** How often the in-process worker looks for due jobs; 0 stops it (tests drive it by hand). */
  jobsPollMs: number;
  /** The answer engines with their own API (the other two come through the SERP provider); missing = not configured. */
  engines: Partial<Record<ApiEngine, EngineSettings>>;
  /** A SERP data provider with a DataForSEO-compatible API: Google and Bing ranks, Google's AI overviews, Copilot from Bing's SERP. */
  serp: SerpSettings | undefined;
  /** A backlink data provider with a DataForSEO-compatible API (BACKLINKS_*, else the SERP provider's account); missing = not configured. */
  backlinkIndex: BacklinkIndexSettings | undefined;
  /** A SerpApi- or SearchApi-compatible `engine=bing_copilot` endpoint: Copilot asked on its own (it then takes Copilot over from the SERP provider). */
  copilot: CopilotSettings | undefined;
  /** Google Search Console (OAuth web flow): client id and secret set by the operator. */
  searchConsole: SearchConsoleSettings | undefined;
  /** Google Analytics 4 (OAuth web flow): its own client, or the Search Console client when GA4_* is not set. */
  googleAnalytics: GoogleAnalyticsSettings | undefined;
  /** The CDN source (Cloudflare): its endpoints always, the operator's OAuth client when CDN_CLIENT_ID is set. */
  cdn: CdnSettings;
  /** Times each tracked query is asked of each engine per weekly check (engines are noisy). */
  checkRunsPerQuery: number;
  /** Days between two verifications of a known link (placed, network, managed) on its linking page. */
  backlinkVerifyEveryDays: number;
  /** Private-use URI schemes desktop MCP hosts may register as OAuth redirect URIs (besides https and loopback http). */
  oauthRedirectSchemes: string[];
  /** Where limits and provider slots are shared between instances; unset: PostgreSQL when that is the database, else memory. */
  redisUrl: string | undefined;
  /** Events the collect endpoint takes a minute from one client address and for one site; beyond, 429. */
  counterLimits: CounterLimits;
  /** PostgreSQL connections this process keeps at most. */
  databasePoolMax: number;
  /**
   * express's `trust proxy`: false (the client address is the socket's), a number of proxy hops, or the proxies'
   * addresses and subnets. Only then is the client address read from X-Forwarded-For.
   */
  trustProxy: false | number | string[];
  /** A dashboard session not used for this long ends (SESSION_IDLE_TIMEOUT_MINUTES), within its 14-day lifetime. */
  sessionIdleTimeoutMs: number;
  /** On SIGTERM: how long requests in flight and running jobs get before jobs are handed back and the process exits. */
  shutdownGraceMs: number;
  /**
   * On SIGTERM: how long the instance keeps accepting connections after /readyz fails, so that a load balancer polling
   * it stops sending here before a connection is refused. At most shutdownGraceMs.
   */
  shutdownReadinessDelayMs: number;
  /** The site builders that install the tracking loader: the operator's Webflow app and Wix app. */
  siteBuilders: SiteBuilderSettings;
  /** A contact finder with a Hunter-compatible API (HUNTER_API_KEY); undefined: only the free reading of the prospect's pages. */
  hunter: HunterSettings | undefined;
  /** SECRETS_KEY: seals stored credentials; undefined: they are stored unencrypted. */
  secretsKey: Buffer | undefined;
  /** SECRETS_KEY_PREVIOUS: older keys, which only open what they sealed. */
  previousSecretsKeys: Buffer[];
  /** How outreach reaches the workspaces' own mailboxes (SMTP and IMAP). */
  mail: MailSettings;
  linkNetwork: LinkNetworkSettings;
  /** The sources social threads are searched in; a source missing here is listed as not configured. */
  socialSources: SocialSourceSettings;
  /** The API base URLs of the scheduling tools a workspace can connect (tests point them at local servers). */
  schedulerUrls: SchedulerUrls;
}

export interface SocialSourceSettings {
  /** Hacker News through Algolia's search API: no key; off when listed in SOCIAL_SOURCES_OFF. */
  hackernews: { baseUrl: string } | undefined;
  /** Stack Exchange API 2.3: 300 requests a day without STACKEXCHANGE_KEY, 10,000 with one; the sites searched. */
  stackexchange: { baseUrl: string; key: string | undefined; sites: string[] } | undefined;
  /** Bluesky's searchPosts, signed in with an app password (a logged-out search returns one page only). */
  bluesky: { serviceUrl: string; identifier: string; appPassword: string } | undefined;
  /** Reddit only with the operator's approved app (its Responsible Builder Policy): app-only OAuth. */
  reddit: { authUrl: string; apiUrl: string; clientId: string; clientSecret: string; userAgent: string } | undefined;
}

export interface SchedulerUrls {
  /** Postiz's hosted API; a self-hosted Postiz is the workspace's own URL. */
  postiz: string;
  buffer: string;
  typefully: string;
}

export interface MailSettings {
  /** MAIL_ALLOW_INSECURE=1: SMTP and IMAP without TLS. Local testing only: passwords would cross the network in clear. */
  allowInsecure: boolean;
  /** Mail servers on private, loopback and link-local addresses (ALLOW_PRIVATE_TARGETS). */
  allowPrivateHosts: boolean;
  /** OUTREACH_IMAP_POLL_MS: how often each mailbox's inbox is read for replies. */
  imapPollMs: number;
}

export interface HunterSettings {
  /** Base URL ending before `/domain-search`, e.g. https://api.hunter.io/v2. */
  baseUrl: string;
  apiKey: string;
}

export interface WriterSettings {
  /** Base URL ending before `/chat/completions`, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** WRITER_EMBEDDING_MODEL: the model `POST {baseUrl}/embeddings` is asked with; undefined: nothing is embedded (the link network proposes nothing). */
  embeddingModel?: string | undefined;
}

/** The link network's guardrails an operator may tune. */
export interface LinkNetworkSettings {
  /** NETWORK_SIMILARITY_THRESHOLD: the cosine similarity a host article and a target page must exceed to be proposed. */
  similarityThreshold: number;
  /** NETWORK_MONTHLY_CAP: placements a site may host, and receive, per calendar month (UTC). */
  monthlyCap: number;
}

export const API_ENGINES = ['chatgpt', 'perplexity', 'gemini', 'claude'] as const;
export type ApiEngine = (typeof API_ENGINES)[number];

export interface EngineSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Calls started per minute at most, across every instance (ENGINE_<NAME>_RPM). */
  perMinute: number;
}

/** Each engine's official endpoint and a current model with web search, used when only the key is set. */
export const ENGINE_DEFAULTS: Record<ApiEngine, { baseUrl: string; model: string }> = {
  chatgpt: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' },
  perplexity: { baseUrl: 'https://api.perplexity.ai', model: 'sonar' },
  gemini: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', model: 'gemini-2.5-flash' },
  claude: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5' },
};

/**
 * Requests per minute each provider allows on its entry paid tier, as published: OpenAI tier 1, Perplexity tiers 0
 * and 1 (sonar models), Gemini tier 1 (its lowest per-model figure), Anthropic tier 1, SerpApi's hourly throughput
 * on its smallest plan (1,000 an hour), DataForSEO's per-account limit. An operator on a higher tier raises them.
 */
export const PROVIDER_RPM_DEFAULTS = { chatgpt: 500, perplexity: 50, gemini: 150, claude: 50, copilot: 16, serp: 2000 } as const;

export interface SerpSettings {
  baseUrl: string;
  login: string;
  password: string;
  /** SERP_RPM */
  perMinute: number;
}

/** The settings that turn the backlink index on, as error messages name them. */
export const BACKLINK_INDEX_SETTINGS = 'BACKLINKS_BASE_URL, BACKLINKS_LOGIN and BACKLINKS_PASSWORD (or the SERP provider\'s SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD)';

export interface BacklinkIndexSettings {
  baseUrl: string;
  login: string;
  password: string;
  /** BACKLINKS_RPM on its own account; the SERP_RPM allowance, shared with the SERP client, on the SERP provider's. */
  perMinute: number;
  /** True when SERP_* serve (BACKLINKS_* not set): one account, so one set of limits for both clients. */
  sharesSerpAccount: boolean;
  /** BACKLINKS_MAX_ROWS: backlinks read per workspace and sync at most. */
  maxRows: number;
}

export interface CopilotSettings {
  /** Where `/search` lives: https://serpapi.com or https://www.searchapi.io/api/v1. */
  baseUrl: string;
  apiKey: string | undefined;
  /** ENGINE_COPILOT_RPM */
  perMinute: number;
}

export interface SearchConsoleSettings {
  clientId: string;
  clientSecret: string;
  /** Google's endpoints; overridable so a local server can play them in tests. */
  authUrl: string;
  tokenUrl: string;
  apiBaseUrl: string;
}

export interface GoogleAnalyticsSettings {
  clientId: string;
  clientSecret: string;
  /** Google's endpoints; overridable so a local server can play them in tests. */
  authUrl: string;
  tokenUrl: string;
  /** The Analytics Admin API (the properties an account can read). */
  adminApiUrl: string;
  /** The Analytics Data API (the reports). */
  dataApiUrl: string;
}

export interface CdnSettings {
  /** CDN_CLIENT_ID and CDN_CLIENT_SECRET; undefined: owners connect by pasting an API token only. */
  oauth: { clientId: string; clientSecret: string; tokenAuthMethod: 'client_secret_basic' | 'client_secret_post' } | undefined;
  /** CDN_SCOPES: what the authorization asks for, as the OAuth client was registered with. */
  scopes: string[];
  /** CDN_AUTH_URL, CDN_TOKEN_URL, CDN_API_BASE_URL: Cloudflare's, unless a proxy (or a test) stands in. */
  endpoints: CloudflareEndpoints;
}

/**
 * Cloudflare names OAuth scopes after API-token permissions (Zone Read, Analytics Read); refresh tokens come with the
 * client's `refresh_token` grant type, not a scope. The operator sets CDN_SCOPES to the ids Cloudflare lists for them.
 */
export const DEFAULT_CDN_SCOPES = ['zone.read', 'analytics.read'];

export interface SiteBuilderSettings {
  /** Undefined when WEBFLOW_CLIENT_ID and WEBFLOW_CLIENT_SECRET are not set. */
  webflow: WebflowSettings | undefined;
  /** Undefined when WIX_APP_ID and WIX_APP_SECRET are not set. */
  wix: WixSettings | undefined;
}

/** The operator's Webflow Data Client app, which owners authorize for their sites in the dashboard (OAuth code grant). */
export interface WebflowSettings {
  clientId: string;
  clientSecret: string;
  /** Webflow's consent screen. */
  authUrl: string;
  /** Where `/oauth/access_token` and `/v2/…` live; overridable so a local server can play Webflow in tests. */
  apiBaseUrl: string;
}

/** The operator's Wix app with an Embedded Script extension; sites that installed it are reached by their instance id. */
export interface WixSettings {
  appId: string;
  appSecret: string;
  /** Where `/oauth2/token` and `/apps/v1/…` live; overridable for tests. */
  apiBaseUrl: string;
  /** The embedded script extension to fill, needed only when the app has more than one. */
  componentId: string | undefined;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT: must be a whole number from 0 to 65535, got "${value}"`);
  return port;
}

function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL: must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_URL: must use http or https');
  return url.href.replace(/\/+$/, '');
}

function parseWriter(env: NodeJS.ProcessEnv): WriterSettings | undefined {
  const baseUrl = env.WRITER_BASE_URL || undefined;
  const model = env.WRITER_MODEL || undefined;
  if (baseUrl === undefined && model === undefined) return undefined;
  if (baseUrl === undefined || model === undefined) throw new Error('WRITER_BASE_URL and WRITER_MODEL: set both, or neither');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`WRITER_BASE_URL: must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('WRITER_BASE_URL: must use http or https');
  return { baseUrl: url.href.replace(/\/+$/, ''), apiKey: env.WRITER_API_KEY || undefined, model, embeddingModel: env.WRITER_EMBEDDING_MODEL || undefined };
}

function httpUrlSetting(name: string, value: string): string {
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) throw new Error(`${name}: must be an absolute http(s) URL, got "${value}"`);
  return value.replace(/\/+$/, '');
}

/** HN and Stack Exchange need no key and are on unless SOCIAL_SOURCES_OFF lists them; Bluesky and Reddit need their accounts. */
function parseSocialSources(env: NodeJS.ProcessEnv): SocialSourceSettings {
  const off = new Set(list(env.SOCIAL_SOURCES_OFF));
  for (const name of off) if (!(SOCIAL_SOURCE_NAMES as readonly string[]).includes(name)) throw new Error(`SOCIAL_SOURCES_OFF: "${name}" is not a source (${SOCIAL_SOURCE_NAMES.join(', ')})`);
  const pair = (first: string, second: string) => {
    const a = env[first] || undefined;
    const b = env[second] || undefined;
    if ((a === undefined) !== (b === undefined)) throw new Error(`${a === undefined ? first : second}: set ${first} and ${second} together, or neither`);
    return a === undefined || b === undefined ? undefined : [a, b] as const;
  };
  const bluesky = pair('BLUESKY_IDENTIFIER', 'BLUESKY_APP_PASSWORD');
  const reddit = pair('REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET');
  const sites = list(env.STACKEXCHANGE_SITES);
  for (const site of sites) if (!/^[a-z0-9.-]+$/.test(site)) throw new Error(`STACKEXCHANGE_SITES: "${site}" is not a Stack Exchange site name (stackoverflow, superuser, webapps...)`);
  return {
    hackernews: off.has('hackernews') ? undefined : { baseUrl: httpUrlSetting('HACKERNEWS_BASE_URL', env.HACKERNEWS_BASE_URL || 'https://hn.algolia.com/api/v1') },
    stackexchange: off.has('stackexchange')
      ? undefined
      : {
          baseUrl: httpUrlSetting('STACKEXCHANGE_BASE_URL', env.STACKEXCHANGE_BASE_URL || 'https://api.stackexchange.com/2.3'),
          key: env.STACKEXCHANGE_KEY || undefined,
          sites: sites.length > 0 ? sites : ['stackoverflow'],
        },
    bluesky:
      off.has('bluesky') || bluesky === undefined
        ? undefined
        : { serviceUrl: httpUrlSetting('BLUESKY_SERVICE_URL', env.BLUESKY_SERVICE_URL || 'https://bsky.social'), identifier: bluesky[0], appPassword: bluesky[1] },
    reddit:
      off.has('reddit') || reddit === undefined
        ? undefined
        : {
            authUrl: httpUrlSetting('REDDIT_AUTH_URL', env.REDDIT_AUTH_URL || 'https://www.reddit.com'),
            apiUrl: httpUrlSetting('REDDIT_API_URL', env.REDDIT_API_URL || 'https://oauth.reddit.com'),
            clientId: reddit[0],
            clientSecret: reddit[1],
            userAgent: env.REDDIT_USER_AGENT || 'server:sightline:1.0 (self-hosted Sightline)',
          },
  };
}

function parseSchedulerUrls(env: NodeJS.ProcessEnv): SchedulerUrls {
  return {
    postiz: httpUrlSetting('POSTIZ_BASE_URL', env.POSTIZ_BASE_URL || 'https://api.postiz.com/public/v1'),
    buffer: httpUrlSetting('BUFFER_BASE_URL', env.BUFFER_BASE_URL || 'https://api.buffer.com'),
    typefully: httpUrlSetting('TYPEFULLY_BASE_URL', env.TYPEFULLY_BASE_URL || 'https://api.typefully.com/v2'),
  };
}

/** Hunter is configured by its key; HUNTER_BASE_URL points at a compatible server (https: it goes through the outbound guard). */
function parseHunter(env: NodeJS.ProcessEnv): HunterSettings | undefined {
  const apiKey = env.HUNTER_API_KEY || undefined;
  if (apiKey === undefined) {
    if (env.HUNTER_BASE_URL) throw new Error('HUNTER_BASE_URL: set HUNTER_API_KEY too, or neither');
    return undefined;
  }
  const baseUrl = httpUrlSetting('HUNTER_BASE_URL', env.HUNTER_BASE_URL || 'https://api.hunter.io/v2');
  if (!baseUrl.startsWith('https:')) throw new Error(`HUNTER_BASE_URL: must be an https URL, got "${baseUrl}"`);
  return { baseUrl, apiKey };
}

/** An engine is configured by its key (official endpoint) or its base URL (a compatible server that needs no key). */
function parseEngines(env: NodeJS.ProcessEnv): Partial<Record<ApiEngine, EngineSettings>> {
  const engines: Partial<Record<ApiEngine, EngineSettings>> = {};
  for (const engine of API_ENGINES) {
    const prefix = `ENGINE_${engine.toUpperCase()}_`;
    const apiKey = env[`${prefix}API_KEY`] || undefined;
    const baseUrl = env[`${prefix}BASE_URL`] || undefined;
    if (apiKey === undefined && baseUrl === undefined) continue;
    engines[engine] = {
      baseUrl: httpUrlSetting(`${prefix}BASE_URL`, baseUrl ?? ENGINE_DEFAULTS[engine].baseUrl),
      apiKey,
      model: env[`${prefix}MODEL`] || ENGINE_DEFAULTS[engine].model,
      perMinute: perMinuteSetting(env, `${prefix}RPM`, PROVIDER_RPM_DEFAULTS[engine]),
    };
  }
  return engines;
}

/** Configured by the key (SerpApi's endpoint) or a base URL (SearchApi, or a compatible server). */
function parseCopilot(env: NodeJS.ProcessEnv): CopilotSettings | undefined {
  const apiKey = env.ENGINE_COPILOT_API_KEY || undefined;
  const baseUrl = env.ENGINE_COPILOT_BASE_URL || undefined;
  if (apiKey === undefined && baseUrl === undefined) return undefined;
  return {
    baseUrl: httpUrlSetting('ENGINE_COPILOT_BASE_URL', baseUrl ?? 'https://serpapi.com'),
    apiKey,
    perMinute: perMinuteSetting(env, 'ENGINE_COPILOT_RPM', PROVIDER_RPM_DEFAULTS.copilot),
  };
}

function parseSerp(env: NodeJS.ProcessEnv): SerpSettings | undefined {
  const values = [env.SERP_BASE_URL, env.SERP_LOGIN, env.SERP_PASSWORD].map((v) => v || undefined);
  if (values.every((v) => v === undefined)) return undefined;
  if (values.some((v) => v === undefined)) throw new Error('SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD: set all three, or none');
  return { baseUrl: httpUrlSetting('SERP_BASE_URL', values[0]!), login: values[1]!, password: values[2]!, perMinute: perMinuteSetting(env, 'SERP_RPM', PROVIDER_RPM_DEFAULTS.serp) };
}

/** BACKLINKS_* (all three or none), else the SERP provider's account; BACKLINKS_RPM applies to an account of its own only. */
function parseBacklinkIndex(env: NodeJS.ProcessEnv, serp: SerpSettings | undefined): BacklinkIndexSettings | undefined {
  const maxRows = wholeNumber('BACKLINKS_MAX_ROWS', env.BACKLINKS_MAX_ROWS, 1000, 1, 1_000_000);
  const perMinute = perMinuteSetting(env, 'BACKLINKS_RPM', PROVIDER_RPM_DEFAULTS.serp);
  const values = [env.BACKLINKS_BASE_URL, env.BACKLINKS_LOGIN, env.BACKLINKS_PASSWORD].map((v) => v || undefined);
  if (values.every((v) => v === undefined)) return serp === undefined ? undefined : { ...serp, sharesSerpAccount: true, maxRows };
  if (values.some((v) => v === undefined)) throw new Error('BACKLINKS_BASE_URL, BACKLINKS_LOGIN and BACKLINKS_PASSWORD: set all three, or none (then the SERP_* account serves)');
  return { baseUrl: httpUrlSetting('BACKLINKS_BASE_URL', values[0]!), login: values[1]!, password: values[2]!, perMinute, sharesSerpAccount: false, maxRows };
}

function perMinuteSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const perMinute = Number(value);
  if (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > 100_000) throw new Error(`${name}: must be a whole number of requests per minute from 1 to 100000, got "${value}"`);
  return perMinute;
}

function parseSearchConsole(env: NodeJS.ProcessEnv): SearchConsoleSettings | undefined {
  const clientId = env.GSC_CLIENT_ID || undefined;
  const clientSecret = env.GSC_CLIENT_SECRET || undefined;
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (clientId === undefined || clientSecret === undefined) throw new Error('GSC_CLIENT_ID and GSC_CLIENT_SECRET: set both, or neither');
  return {
    clientId,
    clientSecret,
    authUrl: httpUrlSetting('GSC_AUTH_URL', env.GSC_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth'),
    tokenUrl: httpUrlSetting('GSC_TOKEN_URL', env.GSC_TOKEN_URL || 'https://oauth2.googleapis.com/token'),
    apiBaseUrl: httpUrlSetting('GSC_API_BASE_URL', env.GSC_API_BASE_URL || 'https://searchconsole.googleapis.com'),
  };
}

/**
 * GA4_CLIENT_ID and GA4_CLIENT_SECRET, or else the Search Console client: one Google OAuth client can serve both once
 * the Analytics redirect URI is registered on it and the Analytics APIs are enabled in its project.
 */
function parseGoogleAnalytics(env: NodeJS.ProcessEnv, searchConsole: SearchConsoleSettings | undefined): GoogleAnalyticsSettings | undefined {
  const clientId = env.GA4_CLIENT_ID || undefined;
  const clientSecret = env.GA4_CLIENT_SECRET || undefined;
  if ((clientId === undefined) !== (clientSecret === undefined)) throw new Error('GA4_CLIENT_ID and GA4_CLIENT_SECRET: set both, or neither');
  const client =
    clientId !== undefined && clientSecret !== undefined
      ? { clientId, clientSecret }
      : searchConsole === undefined
        ? undefined
        : { clientId: searchConsole.clientId, clientSecret: searchConsole.clientSecret };
  if (client === undefined) return undefined;
  return {
    ...client,
    authUrl: httpUrlSetting('GA4_AUTH_URL', env.GA4_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth'),
    tokenUrl: httpUrlSetting('GA4_TOKEN_URL', env.GA4_TOKEN_URL || 'https://oauth2.googleapis.com/token'),
    adminApiUrl: httpUrlSetting('GA4_ADMIN_API_URL', env.GA4_ADMIN_API_URL || 'https://analyticsadmin.googleapis.com'),
    dataApiUrl: httpUrlSetting('GA4_DATA_API_URL', env.GA4_DATA_API_URL || 'https://analyticsdata.googleapis.com'),
  };
}

function parseCdn(env: NodeJS.ProcessEnv): CdnSettings {
  const clientId = env.CDN_CLIENT_ID || undefined;
  const clientSecret = env.CDN_CLIENT_SECRET || undefined;
  if ((clientId === undefined) !== (clientSecret === undefined)) throw new Error('CDN_CLIENT_ID and CDN_CLIENT_SECRET: set both, or neither');
  const method = env.CDN_TOKEN_AUTH_METHOD || 'client_secret_basic';
  if (method !== 'client_secret_basic' && method !== 'client_secret_post') {
    throw new Error(`CDN_TOKEN_AUTH_METHOD: must be client_secret_basic or client_secret_post (as the OAuth client was registered), got "${method}"`);
  }
  const scopes = env.CDN_SCOPES === undefined || env.CDN_SCOPES === '' ? DEFAULT_CDN_SCOPES : env.CDN_SCOPES.split(/[\s,]+/).filter((scope) => scope !== '');
  return {
    oauth: clientId === undefined || clientSecret === undefined ? undefined : { clientId, clientSecret, tokenAuthMethod: method },
    scopes,
    endpoints: {
      authUrl: httpUrlSetting('CDN_AUTH_URL', env.CDN_AUTH_URL || CLOUDFLARE_ENDPOINTS.authUrl),
      tokenUrl: httpUrlSetting('CDN_TOKEN_URL', env.CDN_TOKEN_URL || CLOUDFLARE_ENDPOINTS.tokenUrl),
      apiBaseUrl: httpUrlSetting('CDN_API_BASE_URL', env.CDN_API_BASE_URL || CLOUDFLARE_ENDPOINTS.apiBaseUrl),
    },
  };
}

function parseSiteBuilders(env: NodeJS.ProcessEnv): SiteBuilderSettings {
  const webflowId = env.WEBFLOW_CLIENT_ID || undefined;
  const webflowSecret = env.WEBFLOW_CLIENT_SECRET || undefined;
  if ((webflowId === undefined) !== (webflowSecret === undefined)) throw new Error('WEBFLOW_CLIENT_ID and WEBFLOW_CLIENT_SECRET: set both, or neither');
  const wixId = env.WIX_APP_ID || undefined;
  const wixSecret = env.WIX_APP_SECRET || undefined;
  if ((wixId === undefined) !== (wixSecret === undefined)) throw new Error('WIX_APP_ID and WIX_APP_SECRET: set both, or neither');
  return {
    webflow:
      webflowId === undefined || webflowSecret === undefined
        ? undefined
        : {
            clientId: webflowId,
            clientSecret: webflowSecret,
            authUrl: httpUrlSetting('WEBFLOW_AUTH_URL', env.WEBFLOW_AUTH_URL || 'https://webflow.com/oauth/authorize'),
            apiBaseUrl: httpUrlSetting('WEBFLOW_API_BASE_URL', env.WEBFLOW_API_BASE_URL || 'https://api.webflow.com'),
          },
    wix:
      wixId === undefined || wixSecret === undefined
        ? undefined
        : {
            appId: wixId,
            appSecret: wixSecret,
            apiBaseUrl: httpUrlSetting('WIX_API_BASE_URL', env.WIX_API_BASE_URL || 'https://www.wixapis.com'),
            componentId: env.WIX_SCRIPT_COMPONENT_ID || undefined,
          },
  };
}

function parseSimilarityThreshold(value: string | undefined): number {
  if (value === undefined || value === '') return 0.8;
  const threshold = Number(value);
  if (!Number.isFinite(threshold) || threshold <= 0 || threshold >= 1) throw new Error(`NETWORK_SIMILARITY_THRESHOLD: must be a number between 0 and 1, got "${value}"`);
  return threshold;
}

function parseRunsPerQuery(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1 || runs > 10) throw new Error(`CHECK_RUNS_PER_QUERY: must be a whole number from 1 to 10, got "${value}"`);
  return runs;
}

function parseJobsPoll(value: string | undefined): number {
  if (value === undefined || value === '') return 1000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`JOBS_POLL_MS: must be a whole number of milliseconds (0 stops the worker), got "${value}"`);
  return ms;
}

function parseRedisUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!URL.canParse(value) || !['redis:', 'rediss:'].includes(new URL(value).protocol)) throw new Error(`REDIS_URL: must be a redis:// or rediss:// URL, got "${value}"`);
  return value;
}

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${name}: must be a whole number from ${min} to ${max}, got "${value}"`);
  return number;
}

function parseShutdown(env: NodeJS.ProcessEnv): Pick<Config, 'shutdownGraceMs' | 'shutdownReadinessDelayMs'> {
  const shutdownGraceMs = wholeNumber('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 10_000, 0, 600_000);
  // The delay is part of the grace; a grace shorter than the default delay shortens the delay with it.
  const shutdownReadinessDelayMs = wholeNumber('SHUTDOWN_READINESS_DELAY_MS', env.SHUTDOWN_READINESS_DELAY_MS, Math.min(5000, shutdownGraceMs), 0, 600_000);
  if (shutdownReadinessDelayMs > shutdownGraceMs) {
    throw new Error(`SHUTDOWN_READINESS_DELAY_MS: must not be longer than SHUTDOWN_GRACE_MS (${shutdownGraceMs}), which bounds the whole stop; got "${env.SHUTDOWN_READINESS_DELAY_MS}"`);
  }
  return { shutdownGraceMs, shutdownReadinessDelayMs };
}

/** TRUST_PROXY: unset, `0` or `false`: off; a hop count such as `1`; or a comma list of addresses and subnets (`10.0.0.0/8`, `loopback`). */
function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (/^\d+$/.test(value)) return wholeNumber('TRUST_PROXY', value, 0, 1, 10);
  const entries = list(value);
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const validAddress = named.has(entry) || (address !== undefined && isIP(address) !== 0);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(address ?? '') === 6 ? 128 : 32));
    if (!validAddress || !validBits || extra !== undefined) {
      throw new Error(`TRUST_PROXY: must be a number of proxy hops or a comma list of proxy addresses or subnets (or loopback, linklocal, uniquelocal), got "${entry}"`);
    }
  }
  return entries;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  const host = env.HOST || '127.0.0.1';
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const publicUrl = parsePublicUrl(env.PUBLIC_URL || `http://${displayHost}:${port}`);
  const publicHost = new URL(publicUrl).hostname;
  const allowedHosts = [...new Set([...LOOPBACK_HOSTS, publicHost, ...list(env.ALLOWED_HOSTS)])];
  const allowedOrigins = [...new Set([new URL(publicUrl).origin, ...list(env.ALLOWED_ORIGINS)])];
  const mcpDevNoAuth = env.MCP_DEV_NO_AUTH === '1';
  if (mcpDevNoAuth && !['127.0.0.1', 'localhost', '::1'].includes(host)) {
    throw new Error('MCP_DEV_NO_AUTH: refused unless HOST is a loopback address (127.0.0.1, localhost or ::1)');
  }
  const searchConsole = parseSearchConsole(env);
  const serp = parseSerp(env);
  return {
    port,
    mcpDevNoAuth,
    mcpListenPollMs: wholeNumber('MCP_LISTEN_POLL_MS', env.MCP_LISTEN_POLL_MS, 5000, 100, 60_000),
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS === '1',
    writer: parseWriter(env),
    jobsPollMs: parseJobsPoll(env.JOBS_POLL_MS),
    engines: parseEngines(env),
    serp,
    backlinkIndex: parseBacklinkIndex(env, serp),
    copilot: parseCopilot(env),
    searchConsole,
    googleAnalytics: parseGoogleAnalytics(env, searchConsole),
    cdn: parseCdn(env),
    siteBuilders: parseSiteBuilders(env),
    hunter: parseHunter(env),
    socialSources: parseSocialSources(env),
    schedulerUrls: parseSchedulerUrls(env),
    checkRunsPerQuery: parseRunsPerQuery(env.CHECK_RUNS_PER_QUERY),
    linkNetwork: {
      similarityThreshold: parseSimilarityThreshold(env.NETWORK_SIMILARITY_THRESHOLD),
      monthlyCap: wholeNumber('NETWORK_MONTHLY_CAP', env.NETWORK_MONTHLY_CAP, 4, 1, 1000),
    },
    backlinkVerifyEveryDays: wholeNumber('BACKLINK_VERIFY_EVERY_DAYS', env.BACKLINK_VERIFY_EVERY_DAYS, 7, 1, 90),
    host,
    publicUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    allowedHosts,
    allowedOrigins,
    redisUrl: parseRedisUrl(env.REDIS_URL),
    databasePoolMax: wholeNumber('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX, 10, 1, 1000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    sessionIdleTimeoutMs: wholeNumber('SESSION_IDLE_TIMEOUT_MINUTES', env.SESSION_IDLE_TIMEOUT_MINUTES, 240, 5, 20_160) * 60_000,
    ...parseShutdown(env),
    counterLimits: {
      perAddressPerMinute: wholeNumber('COUNTER_ADDRESS_EVENTS_PER_MINUTE', env.COUNTER_ADDRESS_EVENTS_PER_MINUTE, 600, 1, 10_000_000),
      perSitePerMinute: wholeNumber('COUNTER_SITE_EVENTS_PER_MINUTE', env.COUNTER_SITE_EVENTS_PER_MINUTE, 300_000, 1, 100_000_000),
    },
    secretsKey: env.SECRETS_KEY ? parseSealingKey('SECRETS_KEY', env.SECRETS_KEY) : undefined,
    previousSecretsKeys: list(env.SECRETS_KEY_PREVIOUS).map((key) => parseSealingKey('SECRETS_KEY_PREVIOUS', key)),
    mail: {
      allowInsecure: env.MAIL_ALLOW_INSECURE === '1',
      allowPrivateHosts: env.ALLOW_PRIVATE_TARGETS === '1',
      imapPollMs: wholeNumber('OUTREACH_IMAP_POLL_MS', env.OUTREACH_IMAP_POLL_MS, 300_000, 60_000, 86_400_000),
    },
    oauthRedirectSchemes: env.OAUTH_REDIRECT_SCHEMES === undefined ? ['cursor', 'vscode', 'vscode-insiders', 'claude', 'windsurf'] : list(env.OAUTH_REDIRECT_SCHEMES),
    bootstrap: {
      workspaceName: env.BOOTSTRAP_WORKSPACE_NAME || 'My site',
      siteUrl: env.BOOTSTRAP_SITE_URL || 'https://example.com',
    },
  };
}
