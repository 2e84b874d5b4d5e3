import { isIP } from 'node:net';
import { parseSealingKey } from './credentials/sealed.js';
import type { BlueskySettings } from './integrations/bluesky/socialSource.js';
import type { CdnSettings } from './integrations/cloudflare/cdn.js';
import type { BacklinkIndexSettings } from './integrations/dataforseo/backlinkIndex.js';
import type { SerpSettings } from './integrations/dataforseo/serp.js';
import type { GoogleAnalyticsSettings } from './integrations/google/analytics.js';
import type { SearchConsoleSettings } from './integrations/google/searchConsole.js';
import type { HackerNewsSettings } from './integrations/hackerNews/socialSource.js';
import type { HunterSettings } from './integrations/hunter/contactFinder.js';
import type { OperatorSmtpSettings } from './integrations/smtp/mailer.js';
import type { EngineSettings } from './integrations/kit/answerEngine.js';
import type { CopilotSettings } from './integrations/microsoft/bingCopilotSearch.js';
import type { WriterSettings } from './integrations/openai/chatCompletionsWriter.js';
import { readValue, wholeNumber } from './integrations/kit/declaration.js';
import { readProviderSettings, type ProviderSettings } from './integrations/providers.js';
import { commaList } from './shared/commaList.js';
import type { RedditSettings } from './integrations/reddit/socialSource.js';
import type { StackExchangeSettings } from './integrations/stackExchange/socialSource.js';
import type { WebflowSettings } from './integrations/webflow/siteBuilder.js';
import type { WixSettings } from './integrations/wix/siteBuilder.js';
import { SOCIAL_SOURCE_NAMES } from './social/sources/source.js';

// The providers' settings types live with the clients that take them; the rest of the service reads them from here.
export type {
  BacklinkIndexSettings,
  CdnSettings,
  CopilotSettings,
  EngineSettings,
  GoogleAnalyticsSettings,
  HunterSettings,
  SearchConsoleSettings,
  SerpSettings,
  WebflowSettings,
  WixSettings,
  WriterSettings,
};
export { BACKLINK_INDEX_SETTINGS } from './integrations/dataforseo/provider.js';

/**
 * Settings from the environment, read once at start. The providers' settings are read by their declarations
 * (src/integrations/<vendor>/provider.ts, listed in src/integrations/providers.ts), which also generate their rows of
 * the configuration table in docs/guide/configuration.md; the other rows of that table mirror this file.
 */
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
  /** The operator's SMTP server for digests and alert mail (SMTP_URL or SMTP_HOST, MAIL_FROM); undefined: no mail from Sightline. */
  notificationMail: OperatorSmtpSettings | undefined;
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
  hackernews: HackerNewsSettings | undefined;
  /** Stack Exchange API 2.3: 300 requests a day without STACKEXCHANGE_KEY, 10,000 with one; the sites searched. */
  stackexchange: StackExchangeSettings | undefined;
  /** Bluesky's searchPosts, signed in with an app password (a logged-out search returns one page only). */
  bluesky: BlueskySettings | undefined;
  /** Reddit only with the operator's approved app (its Responsible Builder Policy): app-only OAuth. */
  reddit: RedditSettings | undefined;
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

/** The link network's guardrails an operator may tune. */
export interface LinkNetworkSettings {
  /** NETWORK_SIMILARITY_THRESHOLD: the cosine similarity a host article and a target page must exceed to be proposed. */
  similarityThreshold: number;
  /** NETWORK_MONTHLY_CAP: placements a site may host, and receive, per calendar month (UTC). */
  monthlyCap: number;
}

export const API_ENGINES = ['chatgpt', 'perplexity', 'gemini', 'claude'] as const;
export type ApiEngine = (typeof API_ENGINES)[number];

export interface SiteBuilderSettings {
  /** Undefined when WEBFLOW_CLIENT_ID and WEBFLOW_CLIENT_SECRET are not set. */
  webflow: WebflowSettings | undefined;
  /** Undefined when WIX_APP_ID and WIX_APP_SECRET are not set. */
  wix: WixSettings | undefined;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

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

function configuredEngines(providers: ProviderSettings): Partial<Record<ApiEngine, EngineSettings>> {
  const engines: Partial<Record<ApiEngine, EngineSettings>> = {};
  for (const engine of API_ENGINES) {
    const settings = providers[engine];
    if (settings !== undefined) engines[engine] = settings;
  }
  return engines;
}

/** HN and Stack Exchange need no key and are on unless SOCIAL_SOURCES_OFF lists them; Bluesky and Reddit need their accounts. */
function socialSources(env: NodeJS.ProcessEnv, providers: ProviderSettings): SocialSourceSettings {
  const off = new Set(commaList(env.SOCIAL_SOURCES_OFF));
  for (const name of off) if (!(SOCIAL_SOURCE_NAMES as readonly string[]).includes(name)) throw new Error(`SOCIAL_SOURCES_OFF: "${name}" is not a source (${SOCIAL_SOURCE_NAMES.join(', ')})`);
  return {
    hackernews: off.has('hackernews') ? undefined : providers.hackernews,
    stackexchange: off.has('stackexchange') ? undefined : providers.stackexchange,
    bluesky: off.has('bluesky') ? undefined : providers.bluesky,
    reddit: off.has('reddit') ? undefined : providers.reddit,
  };
}

function parseSimilarityThreshold(value: string | undefined): number {
  if (value === undefined || value === '') return 0.8;
  const threshold = Number(value);
  if (!Number.isFinite(threshold) || threshold <= 0 || threshold >= 1) throw new Error(`NETWORK_SIMILARITY_THRESHOLD: must be a number between 0 and 1, got "${value}"`);
  return threshold;
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

/** A whole-number setting by the kit's rule and wording ("NAME: must be a whole number from … to …, got …"). */
function wholeSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  return readValue(env, name, wholeNumber(min, max), String(fallback));
}

function parseShutdown(env: NodeJS.ProcessEnv): Pick<Config, 'shutdownGraceMs' | 'shutdownReadinessDelayMs'> {
  const shutdownGraceMs = wholeSetting(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000);
  // The delay is part of the grace; a grace shorter than the default delay shortens the delay with it.
  const shutdownReadinessDelayMs = wholeSetting(env, 'SHUTDOWN_READINESS_DELAY_MS', Math.min(5000, shutdownGraceMs), 0, 600_000);
  if (shutdownReadinessDelayMs > shutdownGraceMs) {
    throw new Error(`SHUTDOWN_READINESS_DELAY_MS: must not be longer than SHUTDOWN_GRACE_MS (${shutdownGraceMs}), which bounds the whole stop; got "${env.SHUTDOWN_READINESS_DELAY_MS}"`);
  }
  return { shutdownGraceMs, shutdownReadinessDelayMs };
}

/** TRUST_PROXY: unset, `0` or `false`: off; a hop count such as `1`; or a comma list of addresses and subnets (`10.0.0.0/8`, `loopback`). */
function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (/^\d+$/.test(value)) return wholeSetting({ TRUST_PROXY: value }, 'TRUST_PROXY', 0, 1, 10);
  const entries = commaList(value);
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
  const allowedHosts = [...new Set([...LOOPBACK_HOSTS, publicHost, ...commaList(env.ALLOWED_HOSTS)])];
  const allowedOrigins = [...new Set([new URL(publicUrl).origin, ...commaList(env.ALLOWED_ORIGINS)])];
  const mcpDevNoAuth = env.MCP_DEV_NO_AUTH === '1';
  if (mcpDevNoAuth && !['127.0.0.1', 'localhost', '::1'].includes(host)) {
    throw new Error('MCP_DEV_NO_AUTH: refused unless HOST is a loopback address (127.0.0.1, localhost or ::1)');
  }
  const providers = readProviderSettings(env);
  return {
    port,
    mcpDevNoAuth,
    mcpListenPollMs: wholeSetting(env, 'MCP_LISTEN_POLL_MS', 5000, 100, 60_000),
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS === '1',
    writer: providers.writer,
    jobsPollMs: parseJobsPoll(env.JOBS_POLL_MS),
    engines: configuredEngines(providers),
    serp: providers.serp,
    backlinkIndex: providers.backlinkIndex,
    copilot: providers.copilot,
    searchConsole: providers.searchConsole,
    googleAnalytics: providers.googleAnalytics,
    cdn: providers.cdn,
    siteBuilders: { webflow: providers.webflow, wix: providers.wix },
    hunter: providers.hunter,
    notificationMail: providers.smtp,
    socialSources: socialSources(env, providers),
    schedulerUrls: { postiz: providers.postiz, buffer: providers.buffer, typefully: providers.typefully },
    checkRunsPerQuery: wholeSetting(env, 'CHECK_RUNS_PER_QUERY', 1, 1, 10),
    linkNetwork: {
      similarityThreshold: parseSimilarityThreshold(env.NETWORK_SIMILARITY_THRESHOLD),
      monthlyCap: wholeSetting(env, 'NETWORK_MONTHLY_CAP', 4, 1, 1000),
    },
    backlinkVerifyEveryDays: wholeSetting(env, 'BACKLINK_VERIFY_EVERY_DAYS', 7, 1, 90),
    host,
    publicUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    allowedHosts,
    allowedOrigins,
    redisUrl: parseRedisUrl(env.REDIS_URL),
    databasePoolMax: wholeSetting(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    sessionIdleTimeoutMs: wholeSetting(env, 'SESSION_IDLE_TIMEOUT_MINUTES', 240, 5, 20_160) * 60_000,
    ...parseShutdown(env),
    counterLimits: {
      perAddressPerMinute: wholeSetting(env, 'COUNTER_ADDRESS_EVENTS_PER_MINUTE', 600, 1, 10_000_000),
      perSitePerMinute: wholeSetting(env, 'COUNTER_SITE_EVENTS_PER_MINUTE', 300_000, 1, 100_000_000),
    },
    secretsKey: env.SECRETS_KEY ? parseSealingKey('SECRETS_KEY', env.SECRETS_KEY) : undefined,
    previousSecretsKeys: commaList(env.SECRETS_KEY_PREVIOUS).map((key) => parseSealingKey('SECRETS_KEY_PREVIOUS', key)),
    mail: {
      allowInsecure: env.MAIL_ALLOW_INSECURE === '1',
      allowPrivateHosts: env.ALLOW_PRIVATE_TARGETS === '1',
      imapPollMs: wholeSetting(env, 'OUTREACH_IMAP_POLL_MS', 300_000, 60_000, 86_400_000),
    },
    oauthRedirectSchemes: env.OAUTH_REDIRECT_SCHEMES === undefined ? ['cursor', 'vscode', 'vscode-insiders', 'claude', 'windsurf'] : commaList(env.OAUTH_REDIRECT_SCHEMES),
    bootstrap: {
      workspaceName: env.BOOTSTRAP_WORKSPACE_NAME || 'My site',
      siteUrl: env.BOOTSTRAP_SITE_URL || 'https://example.com',
    },
  };
}
