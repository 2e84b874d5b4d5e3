import type { BacklinkIndex } from './backlinks/index/provider.js';
import type { CdnService } from './analytics/cdn/connection.js';
import type { GoogleAnalyticsSettings, LinkNetworkSettings, MailSettings, SchedulerUrls, SearchConsoleSettings, SiteBuilderSettings } from './config.js';
import type { CredentialSealer } from './credentials/sealed.js';
import type { LimiterStore } from './limits/store.js';
import type { ContactFinders } from './outreach/contacts/finder.js';
import type { SafeFetcher } from './outbound/safeFetch.js';
import type { NotificationMailer } from './notifications/mailer.js';
import type { SocialSourceName } from '../db/schema.js';
import type { SocialSource } from './social/sources/source.js';
import type { AnswerEngine, EngineName } from './visibility/engines/engine.js';
import type { CallPrice, PaidProvider } from './visibility/checks/prices.js';
import type { SerpClient } from './visibility/serp/serp.js';
import type { Writer } from './writer/model.js';

/** Outside providers the handlers and jobs reach, built once from the configuration. */
export interface Services {
  /** Undefined when WRITER_* is not configured: operations that need it answer 400 naming the settings. */
  writer: Writer | undefined;
  /** Requests to addresses customers choose (webhooks, sitemaps, their pages): https only, public addresses only. */
  outbound: SafeFetcher;
  timing: Timing;
  /** The configured answer engines; an engine missing here is reported as not configured and never checked. */
  engines: Partial<Record<EngineName, AnswerEngine>>;
  /** Undefined when SERP_* is not configured: no rank checks, no AI overviews, no Copilot from Bing's page, no website look-up. */
  serp: SerpClient | undefined;
  /** Undefined when neither BACKLINKS_* nor SERP_* is configured: no `index` backlinks, no measured totals, no referring domains. */
  backlinkIndex: BacklinkIndex | undefined;
  /** Undefined when GSC_* is not configured. */
  searchConsole: SearchConsoleSettings | undefined;
  /** Undefined when neither GA4_* nor GSC_* is configured: Google Analytics cannot be connected. */
  googleAnalytics: GoogleAnalyticsSettings | undefined;
  /** Cloudflare, the CDN source: always there for pasted API tokens; its OAuth client only with CDN_CLIENT_ID and CDN_CLIENT_SECRET. */
  cdn: CdnService;
  /** Times each tracked query is asked of each engine per check. */
  checkRunsPerQuery: number;
  /** The published price of a call to each configured provider, where known (dry runs of a check state the cost). */
  callPrices: Partial<Record<PaidProvider, CallPrice>>;
  /** The operator's Webflow and Wix apps; a builder missing here answers 400 naming its settings. */
  siteBuilders: SiteBuilderSettings;
  /** Who to write to at an outreach prospect: Hunter (HUNTER_API_KEY) when configured, and the prospect's own pages. */
  contacts: ContactFinders;
  /** Seals credentials before they are stored and opens them when they are used (SECRETS_KEY). */
  credentials: CredentialSealer;
  /** Sends digests and alert mail through the operator's SMTP server; undefined when SMTP_URL / SMTP_HOST is not set. */
  notificationMail: NotificationMailer | undefined;
  /** The service's public address (PUBLIC_URL): links in alerts and mail that people open. */
  publicUrl: string;
  /** How outreach reaches the workspaces' own mailboxes: TLS required unless MAIL_ALLOW_INSECURE, private hosts only with ALLOW_PRIVATE_TARGETS. */
  mail: MailSettings;
  /** The link network's similarity threshold and monthly cap (NETWORK_*). */
  linkNetwork: LinkNetworkSettings;
  /** How the links the service knows of (placed, network, managed) are checked on their pages. */
  backlinkVerification: BacklinkVerificationSettings;
  /** The configured sources of social threads; one missing here is listed as not configured and never searched. */
  socialSources: Partial<Record<SocialSourceName, SocialSource>>;
  /** The scheduling tools' API addresses, and the shared store that counts calls against their published limits. */
  schedulers: { urls: SchedulerUrls; limits: LimiterStore };
}

export interface BacklinkVerificationSettings {
  /** Between two verifications of a link whose page answered (BACKLINK_VERIFY_EVERY_DAYS). */
  everyMs: number;
  /** A linking page that has not answered in full by then counts as not answering; tests shorten it. */
  pageTimeoutMs: number;
}

/** A linking page gets this long: slower than an API, as pages of small sites often are. */
export const LINKING_PAGE_TIMEOUT_MS = 15_000;

/** Delays the specification fixes; tests shorten them instead of sleeping. */
export interface Timing {
  /** A delivery still running after this counts as failed (the specification: 30 seconds). */
  webhookTimeoutMs: number;
  /** How long after a publish the live URL is loaded to check that the article renders (about two minutes). */
  renderCheckDelayMs: number;
}

export const SPECIFIED_TIMING: Timing = { webhookTimeoutMs: 30_000, renderCheckDelayMs: 120_000 };
