import type { Generated } from 'kysely';

/**
 * Table types for kysely. Both dialects store timestamps as epoch milliseconds (bigint), booleans as
 * 0/1 integers and lists as JSON text, so one set of queries serves SQLite and PostgreSQL alike.
 */
export interface WorkspacesTable {
  id: string;
  name: string;
  website_url: string;
  plan: string;
  created_at: number;
  /** IANA time zone the dashboard shows times in. */
  time_zone: Generated<string>;
  /** Alert messages a channel (or a person's inbox) gets per UTC day at most; more changes wait for the next message. */
  alerts_per_day: Generated<number>;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
  /** When the account was shown to be its email owner's (the operator made or reset it); null: made through a copied invite link. */
  verified_at: number | null;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'member';
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  user_id: string | null;
  name: string;
  key_hash: string;
  /** The first characters of the key, safe to show so people can tell keys apart. */
  display_prefix: string;
  /** Space-separated scope list. */
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface BrandsTable {
  workspace_id: string;
  name: string;
  industry: string | null;
  sub_industry: string | null;
  product_description: string | null;
  authors: string;
  style_reference_urls: string;
  brand_aliases: string;
  brand_exclusions: string;
  tone: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  default_locale: string;
  flexible_scheduling: number;
  local_business: number;
  service_area: string | null;
  reviewed_at: number | null;
  mention_search_requested_at: number | null;
  updated_at: number;
}

export interface BrandGuidelinesTable {
  id: string;
  workspace_id: string;
  type: string;
  avoid: string;
  instead: string;
  active: number;
  created_at: number;
}

export interface BrandProductsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  url: string | null;
  features: string;
  pricing: string | null;
  category: string;
  usps: string;
  created_at: number;
  updated_at: number;
}

export interface BrandIcpsTable {
  id: string;
  workspace_id: string;
  title: string;
  industry: string;
  company_size: string | null;
  pain_points: string;
  buying_triggers: string;
  objections: string;
  preferred_channels: string;
  demographics: string;
  created_at: number;
  updated_at: number;
}

export interface TeamInvitesTable {
  id: string;
  workspace_id: string;
  email: string;
  role: 'owner' | 'member';
  token_hash: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export interface BillingAccountsTable {
  workspace_id: string;
  status: 'trial' | 'active' | 'cancelling';
  cycle: 'monthly' | 'yearly';
  currency: string;
  trial_ends_at: number | null;
  next_charge_at: number | null;
  next_charge_cents: number | null;
  updated_at: number;
}

export interface BillingAddonsTable {
  id: string;
  workspace_id: string;
  name: string;
  quantity: number;
  unit_price_cents: number;
  created_at: number;
}

export interface BillingPaymentsTable {
  id: string;
  workspace_id: string;
  amount_cents: number;
  currency: string;
  status: 'paid' | 'failed' | 'refunded';
  description: string;
  paid_at: number;
}

export interface SupportMessagesTable {
  id: string;
  workspace_id: string;
  api_key_id: string | null;
  subject: string | null;
  message: string;
  contact_email: string | null;
  created_at: number;
}

export type ApprovalState = 'pending' | 'running' | 'done' | 'failed' | 'declined' | 'expired';

export interface ApprovalsTable {
  id: string;
  workspace_id: string;
  operation_id: string;
  /** The parsed input, JSON: what runs once the owner approves. */
  input: string;
  /** What the change does, in words, as shown to the owner. */
  summary: string;
  state: ApprovalState;
  requested_by_key_id: string | null;
  requested_by_user_id: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  decided_by_user_id: string | null;
  finished_at: number | null;
  /** The operation's answer, JSON, once done. */
  result: string | null;
  /** Why it failed. */
  error: string | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a database leak opens no session. */
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** The last request of this session, to the minute: idle longer than SESSION_IDLE_TIMEOUT_MINUTES ends it. */
  last_seen_at: number;
}

export interface OAuthSigningKeysTable {
  kid: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
  /** Null while the key signs new tokens; after a rotation, until when it still verifies the tokens it signed. */
  retire_at: number | null;
}

export interface OAuthClientsTable {
  client_id: string;
  client_name: string;
  /** JSON list of exact redirect URIs. */
  redirect_uris: string;
  created_at: number;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
  grant_id: string | null;
}

export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  resource: string;
  created_at: number;
  revoked_at: number | null;
  /** When an access token of the grant last called the service, to the minute. */
  last_used_at: number | null;
  /** The scopes the last insufficient_scope challenge for this grant named (space-separated), and when it was sent. */
  step_up_scopes: string | null;
  step_up_at: number | null;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  scopes: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
}

export interface DeviceAuthorizationsTable {
  device_code_hash: string;
  /** What the person types on the verification page, e.g. BCDF-GHJK. */
  user_code: string;
  client_id: string;
  scopes: string;
  status: 'pending' | 'approved' | 'denied' | 'used';
  interval_seconds: number;
  created_at: number;
  expires_at: number;
  last_polled_at: number | null;
  user_id: string | null;
  workspace_id: string | null;
  granted_scopes: string | null;
}

export type ArticleStatus = 'planned' | 'draft' | 'published' | 'archived';

export interface QueriesTable {
  id: string;
  workspace_id: string;
  text: string;
  /** Lower-cased, spaces collapsed: one tracked query per wording. */
  text_key: string;
  /** How it entered the pool: `user` (add_query), `idea` (planned from an idea), `returned` (a deleted planned title's keyword). */
  source: 'user' | 'idea' | 'returned';
  suggested_title: string | null;
  /** Hidden from the content ideas; the query keeps its weekly checks. */
  hidden_at: number | null;
  created_at: number;
}

export interface ArticlesTable {
  id: string;
  workspace_id: string;
  query_id: string | null;
  keyword: string;
  title: string;
  slug: string;
  content_type: string;
  status: ArticleStatus;
  /** The publish slot. */
  scheduled_at: number;
  /** JSON: the idea's numbers when it was planned from one. */
  idea_metrics: string | null;
  meta_title: string | null;
  meta_description: string | null;
  markdown: string | null;
  /** The body as rendered for its last publish (internal links injected, sanitised). */
  html: string | null;
  /** JSON-LD of its last publish render. */
  schema_json_ld: string | null;
  /** JSON list of { question, answer }. */
  faq: string;
  /** JSON list of strings. */
  keywords: string;
  category_name: string | null;
  /** BCP-47. */
  language: string;
  /** JSON { name, bio?, linkedinUrl? } or null. */
  author: string | null;
  word_count: number;
  /** Set while a write job runs: the article is being written. */
  writing_job_id: string | null;
  write_requested_at: number | null;
  written_at: number | null;
  last_write_error: string | null;
  published_at: number | null;
  /** The live URL the active destination returned. */
  url: string | null;
  /** An https image the owner chose (update_article_meta), with its alt text; CMS destinations upload it. */
  featured_image_url: string | null;
  featured_image_alt: string | null;
  live_checked_at: number | null;
  live_confirmed_at: number | null;
  live_check_error: string | null;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SitePagesTable {
  id: string;
  workspace_id: string;
  url: string;
  title: string | null;
  /** JSON list of phrases that should link to this page. */
  keywords: string;
  source: 'manual' | 'sitemap' | 'blog';
  created_at: number;
}

/** Links injected into an article when it was last rendered for publishing. */
export interface InternalLinksTable {
  id: string;
  workspace_id: string;
  from_article_id: string;
  to_url: string;
  /** Set when the target is one of the workspace's articles. */
  to_article_id: string | null;
  anchor_text: string;
  rendered_at: number;
}

export interface ArticlePoliciesTable {
  workspace_id: string;
  /** JSON of the policy; defaults fill what is missing. */
  policy: string;
  updated_at: number;
}

export type DeliveryOutcome = 'delivered' | 'delivered_no_address' | 'failed' | 'timeout';

export interface DestinationsTable {
  id: string;
  workspace_id: string;
  name: string;
  endpoint_url: string;
  site_url: string | null;
  publish_as: 'publish' | 'draft';
  /** Kept to sign deliveries (HMAC needs the secret itself). */
  signing_secret: string;
  /** SHA-256 of the secret: finds the workspace of a crawler-visit report. */
  secret_hash: string;
  active: number;
  last_delivery_at: number | null;
  last_outcome: DeliveryOutcome | null;
  last_status_code: number | null;
  last_url: string | null;
  last_message: string | null;
  /** What the last answer had beside its outcome, e.g. a returned URL of another site that was ignored. */
  last_note: string | null;
  created_at: number;
  removed_at: number | null;
  /** `webhook`, or the CMS kind (src/publishing/cms/kinds.ts) whose API receives the articles. */
  kind: Generated<string>;
  /** The kind's non-secret settings, JSON (`{}` for a webhook). */
  settings: Generated<string>;
  /** The kind's secrets, JSON sealed with SECRETS_KEY; null for a webhook. */
  credentials: string | null;
}

/** Where an article landed on a CMS destination: the post a later publish updates in place. */
export interface DestinationPostsTable {
  destination_id: string;
  article_id: string;
  remote_id: string;
  /** Its public address; null while it is a draft. */
  remote_url: string | null;
  updated_at: number;
}

export interface DeliveriesTable {
  id: string;
  workspace_id: string;
  destination_id: string;
  article_id: string | null;
  event: 'article.published' | 'article.updated' | 'test';
  /** The exact bytes sent and signed. */
  body: string;
  /** `cancelled`: never sent, because its destination was removed or a later publish superseded it. */
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: number;
  outcome: DeliveryOutcome | null;
  status_code: number | null;
  returned_url: string | null;
  error: string | null;
  created_at: number;
  completed_at: number | null;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: number;
  finished_at: number | null;
  outcome: DeliveryOutcome | null;
  status_code: number | null;
  error: string | null;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  workspace_id: string;
  kind: string;
  /** The object the job works on (an article, a delivery). */
  subject_id: string | null;
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: number;
  /** While running: when another worker may take the job over (the first one died). */
  lease_until: number | null;
  /** While running: the attempt holding the lease; a worker whose lease was taken over or given back writes nothing. */
  lease_token: string | null;
  progress: string | null;
  result: string | null;
  error: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A tools/call answered with an MCP task handle: who may follow it; its jobs are in mcp_task_jobs. */
export interface McpTasksTable {
  id: string;
  workspace_id: string;
  /** The Principal's credentialId: only this credential reads, cancels or updates the task. */
  credential_id: string;
  operation_id: string;
  /** The first of its jobs, for instances of the release before mcp_task_jobs; read the jobs from mcp_task_jobs. */
  job_id: string;
  /** JSON: the tool's immediate answer, the task's result once the job is done. */
  answer: string;
  cancel_requested_at: number | null;
  /** Every one of its jobs was withdrawn before it ran: the task is cancelled. */
  cancelled_at: number | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

/** The jobs an MCP task follows: every job its tool's answer started. */
export interface McpTaskJobsTable {
  task_id: string;
  job_id: string;
  /** tasks/cancel took the job off the queue before it ran. */
  withdrawn_at: number | null;
}

export interface NamedLocksTable {
  name: string;
  taken_at: number;
}

export interface SweepClaimsTable {
  name: string;
  next_run_at: number;
  claimed_by: string;
  claimed_at: number;
}

export interface ProviderSlotsTable {
  provider: string;
  holder: string;
  lease_until: number;
}

/** rate-limiter-flexible's counters on PostgreSQL (src/limits/postgresStore.ts), read and written by the library only. */
export interface RateLimitsTable {
  key: string;
  points: Generated<number>;
  /** Epoch milliseconds when the window ends; null: never. */
  expire: number | null;
}

export interface CrawlerVisitsTable {
  id: string;
  workspace_id: string;
  path: string;
  article_id: string | null;
  user_agent: string;
  /** The matched crawler token, or `unknown`. */
  crawler: string;
  category: string;
  operator: string | null;
  visited_at: number;
  reporter: Generated<'site_hook' | 'cms_plugin'>;
}

export type EngineName = 'chatgpt' | 'perplexity' | 'gemini' | 'claude' | 'google_ai_overview' | 'copilot';
/** How an answer treats a brand; a failed check is `failed`, never `none`. */
/** `not_shown`: the search page showed no AI answer for the query (Google's AI overview, Copilot on Bing). */
export type MentionResult = 'cited' | 'mentioned' | 'none' | 'not_shown' | 'failed';

export interface CompetitorsTable {
  id: string;
  workspace_id: string;
  name: string;
  website_url: string;
  /** Registrable domain of the website (www. stripped): answers citing it or a subdomain count as citing the competitor. */
  domain: string;
  /** JSON list of other names the competitor goes by. */
  aliases: string;
  /** JSON of the positioning analysis, when made. */
  positioning: string | null;
  created_at: number;
  /** Removed (after the owner's approval): no longer checked; past answers keep their classification. */
  removed_at: number | null;
}

export interface CheckRunsTable {
  id: string;
  workspace_id: string;
  /** schedule: the weekly run; manual: the operator's command or a brand rename; on_demand: run_visibility_check. */
  trigger: 'schedule' | 'manual' | 'on_demand';
  state: 'running' | 'done';
  /** JSON list of the engines this run asks. */
  engines: string;
  runs_per_query: number;
  /** Engine calls and rank checks planned, completed and failed. */
  planned: number;
  completed: number;
  failed: number;
  created_at: number;
  finished_at: number | null;
}

export interface EngineAnswersTable {
  id: string;
  workspace_id: string;
  run_id: string;
  query_id: string;
  engine: EngineName;
  /** 1..runs per query: engines are noisy, so a check may ask several times. */
  run_index: number;
  model: string | null;
  answer_text: string | null;
  /** JSON list of { url, domain, title, rank }: the engine's final citation list, normalised. */
  citations: string;
  latency_ms: number | null;
  /** Null when the engine answered; else timeout, rate_limited, provider_error, refused, bad_response. */
  error_class: string | null;
  error_message: string | null;
  /** The brand's classification, kept on the answer for list_citations. */
  brand_result: MentionResult;
  /** The rank check whose search page this answer was read from (one paid SERP call for both); null when asked on its own. */
  rank_check_id: string | null;
  checked_at: number;
}

/** One answer's classification for the brand (subject_id `brand`) or one competitor (its id). */
export interface AnswerMentionsTable {
  answer_id: string;
  workspace_id: string;
  subject_id: string;
  result: MentionResult;
  /** Order of the subject's first mention among the brands named in the answer (1 = first). */
  position: number | null;
  sentiment: 'positive' | 'neutral' | 'negative' | null;
  sentiment_score: number | null;
  /** The passage around the first mention, what the sentiment pass read. */
  passage: string | null;
}

/** Per workspace, UTC day, engine and subject: the counts every metric is computed from. */
export interface VisibilityDailyTable {
  workspace_id: string;
  day: number;
  engine: EngineName;
  subject_id: string;
  answers: number;
  answers_with_citations: number;
  cited: number;
  mentioned: number;
  failed: number;
  /** Checks whose search page showed no AI answer: not in `answers`, not failed. */
  not_shown: number;
  positive: number;
  neutral: number;
  negative: number;
  sentiment_score_sum: number;
}

/**
 * Per workspace, UTC day (of a cell's first answer) and engine: cells (one query in one check run, asked more than
 * once, with at least two answers) and those whose answers all agree on the brand (cited, mentioned or none).
 */
export interface AgreementDailyTable {
  workspace_id: string;
  day: number;
  engine: EngineName;
  cells: number;
  agreeing: number;
}

/** Per tracked query and search engine, its latest rank check that answered, kept at write time. */
export interface RankLatestTable {
  workspace_id: string;
  query_id: string;
  search_engine: 'google' | 'bing';
  position: number | null;
  url: string | null;
  /** pageKey(url): the page whatever its spelling. */
  page_key: string | null;
  checked_at: number;
  /** Google: JSON list of the query's latest checks with AI-overview data, newest first, as [checkedAt, shown 0/1, citesUs 0/1]. */
  overview_checks: string;
}

/**
 * Per tracked query (from the moment it is added), its latest checks in one row: bit i set when ENGINE_NAMES[i]'s latest check named the brand
 * (named) or answered at all (answered), and whether a Google rank check answered and the brand's place in it.
 */
export interface QueryLatestTable {
  workspace_id: string;
  query_id: string;
  named: Generated<number>;
  answered: Generated<number>;
  google_checked: Generated<number>;
  google_position: number | null;
  /** The query's text_key, and its Search Console impressions of the current period: the order of the rankings. */
  text_key: Generated<string>;
  impressions: Generated<number>;
  /** The query's created_at: the order of Google versus AI. */
  added_at: Generated<number>;
  /** When the latest Google rank check that answered was made. */
  google_checked_at: number | null;
  /** JSON, per AI engine: its latest check (run, the brand's best result in that run, its latest answer's time). */
  engine_checks: Generated<string>;
}

/** A period's Search Console rows summed per query, written with them. */
export interface SearchConsoleQueriesTable {
  workspace_id: string;
  period: SearchConsolePeriod;
  query: string;
  clicks: number;
  impressions: number;
  /** The tracked query of this wording, if any. */
  query_id: string | null;
}

export interface CitedDomainsDailyTable {
  workspace_id: string;
  day: number;
  engine: EngineName;
  domain: string;
  /** Answers that cite the domain at least once. */
  answers: number;
}

/** Per workspace, page of the brand's own site (pageKey), UTC day and engine: answers citing that page at least once. */
export interface CitedPagesDailyTable {
  workspace_id: string;
  page_key: string;
  day: number;
  engine: EngineName;
  answers: number;
}

export interface RankChecksTable {
  id: string;
  workspace_id: string;
  run_id: string;
  query_id: string;
  search_engine: 'google' | 'bing';
  /** Position of the workspace's best page in the top 30; null when not there (or the check failed). */
  position: number | null;
  url: string | null;
  /** JSON list of the top 30 { position, url, domain, title }. */
  results: string;
  /** Google only: whether an AI overview showed, and whether it cited one of the workspace's pages. */
  ai_overview_shown: number | null;
  ai_overview_cites_us: number | null;
  error_class: string | null;
  error_message: string | null;
  checked_at: number;
}

export interface SearchConsoleConnectionsTable {
  workspace_id: string;
  /** The Search Console property, e.g. sc-domain:example.com or https://example.com/. */
  property: string | null;
  refresh_token: string | null;
  /** The OAuth state of a connection in progress (SHA-256), and when it expires. */
  state_hash: string | null;
  state_expires_at: number | null;
  connected_at: number | null;
  last_sync_at: number | null;
  last_error: string | null;
}

/** The last 28 full days a sync read, and the 28 days before them: growth is measured between the two. */
export type SearchConsolePeriod = 'current' | 'previous';

export interface SearchConsoleRowsTable {
  workspace_id: string;
  period: SearchConsolePeriod;
  query: string;
  page: string;
  /** pageKey(page): one key per page whatever the spelling. */
  page_key: string;
  clicks: number;
  impressions: number;
  /** Average position over the searches the site appeared in: never a rank. */
  position: number;
  start_date: string;
  end_date: string;
}

/** One writer-model call's tokens, booked to the workspace and the purpose it was made for (failed calls included). */
export interface WriterUsageTable {
  id: string;
  workspace_id: string;
  /** A WRITER_PURPOSES value: plan_titles, sentiment, positioning, ... */
  purpose: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  recorded_at: number;
}

/** A screen (analytics, reports) the workspace has activated; screens ship disabled and stay active once activated. */
export interface AnalyticsScreensTable {
  workspace_id: string;
  screen: 'analytics' | 'reports';
  activated_at: number;
}

export type CrawlerSource = 'site_hook' | 'cms_plugin' | 'cdn';

export interface AnalyticsSitesTable {
  workspace_id: string;
  /** Public: the tracking tag carries it, so it is random rather than the workspace's id. */
  site_id: string;
  /** Where the AI-crawler figures come from. */
  crawler_source: CrawlerSource;
  created_at: number;
  /** When the tracking loader last reported an event. */
  loader_seen_at: number | null;
  /** The CMS plugin's version, as its last crawler report gave it (x-sightline-plugin). */
  cms_plugin_version: string | null;
}

/** Where a visit came from, as src/analytics/referrers.ts classifies it; counter_sessions, counter_source_days and leads keep it. */
export const VISIT_SOURCES = ['search', 'ai', 'social', 'direct', 'other'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];

export interface CounterSaltsTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  salt: string;
  created_at: number;
}

export interface CounterVisitorsTable {
  workspace_id: string;
  /** Hash of the day's salt, the site, the address and the user agent: a visitor for one day only. */
  visitor: string;
  session_id: string;
  last_seen_at: number;
  pageviews: number;
}

export interface CounterSessionsTable {
  id: string;
  workspace_id: string;
  /** UTC day the session started, which its figures count under. */
  day: string;
  started_at: number;
  last_seen_at: number;
  pageviews: number;
  engaged_ms: number;
  /** 1 while the session is a bounce (one page view, under 10 s visible). */
  bounced: number;
  entry_path: string;
  referrer_host: string | null;
  source: VisitSource;
  engine: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
}

export interface CounterDaysTable {
  workspace_id: string;
  day: string;
  pageviews: number;
  visitors: number;
  sessions: number;
  bounces: number;
  engaged_ms: number;
  engaged_views: number;
}

export interface CounterPageDaysTable {
  workspace_id: string;
  path: string;
  day: string;
  pageviews: number;
  engaged_ms: number;
  engaged_views: number;
  /** Sessions that began on this page from an answer engine. */
  ai_entries: Generated<number>;
}

export interface CounterReferrersTable {
  workspace_id: string;
  /** The referring host, lower case, without `www.`. */
  host: string;
  first_seen_at: number;
  sessions: number;
}

/** counter_page_days' page views summed by week, keyed by the week's Monday (YYYY-MM-DD). */
export interface CounterPageWeeksTable {
  workspace_id: string;
  week: string;
  path: string;
  pageviews: number;
}

export interface CounterSourceDaysTable {
  workspace_id: string;
  day: string;
  source: VisitSource;
  /** The answer engine for `ai`, else ''. */
  engine: string;
  sessions: number;
  leads: number;
}

export interface LeadsTable {
  id: string;
  workspace_id: string;
  created_at: number;
  session_id: string | null;
  path: string;
  page_url: string;
  /** The form's id or name attribute, when it has one. */
  form: string | null;
  email: string | null;
  name: string | null;
  /** JSON object of the other submitted fields (never passwords, card numbers or hidden fields). */
  fields: string;
  referrer: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  /** First touch: the source of the session the lead came in. */
  source: VisitSource;
  engine: string | null;
}

/** The web-analytics provider a workspace connected; `settings` is JSON (see src/analytics/providers/connections.ts). */
export interface SiteAnalyticsConnectionsTable {
  workspace_id: string;
  provider: 'plausible' | 'umami' | 'ga4';
  /** Everything but the secret: site, website or property id, base URL, Umami user name. */
  settings: string;
  /** Sealed: the API key, the Umami password or the Google refresh token. */
  credential: string;
  connected_at: number;
  last_error: string | null;
}

/** A Google Analytics authorization in progress, bound to the owner who started it. */
export interface Ga4AuthorizationsTable {
  workspace_id: string;
  user_id: string;
  /** SHA-256 of the user and the OAuth state while the owner is on Google's consent screen; null once used. */
  state_hash: string | null;
  expires_at: number;
  /** Sealed, once Google granted access; the property is still to be picked. */
  refresh_token: string | null;
  /** JSON: the properties the account can read, as the Admin API listed them. */
  properties: string | null;
  /** Why the properties could not be listed (the owner then types the property id). */
  properties_error: string | null;
}

/** A workspace's Cloudflare grant (OAuth or a pasted API token), its selected zone and how far the zone is synced. */
export interface CdnConnectionsTable {
  workspace_id: string;
  via: 'oauth' | 'api_token';
  /** Sealed (SECRETS_KEY). The OAuth access token or the pasted API token; null once Cloudflare refused it (connect again). */
  access_token: string | null;
  /** Sealed; OAuth only, and only when Cloudflare handed one. */
  refresh_token: string | null;
  access_expires_at: number | null;
  connected_at: number;
  zone_id: string | null;
  zone_name: string | null;
  /** When the zone was chosen: a sync writes only while the same selection holds. */
  zone_selected_at: number | null;
  /** The zone's httpRequestsAdaptiveGroups limits, read when it was selected. */
  retention_seconds: number | null;
  max_duration_seconds: number | null;
  max_page_size: number | null;
  /** The backfill planned at selection: [since, until) in windows of window_ms. */
  backfill_since: number | null;
  backfill_until: number | null;
  window_ms: number | null;
  /** The end of the last window stored: syncs resume here. */
  synced_until: number | null;
  /** When the hourly poll queues the next sync. */
  next_poll_at: number | null;
  last_sync_at: number | null;
  last_error: string | null;
}

/** An OAuth authorization in progress: the state is one-time and bound to the workspace; the PKCE verifier is sealed. */
export interface CdnAuthorizationsTable {
  state_hash: string;
  workspace_id: string;
  code_verifier: string;
  expires_at: number;
  created_at: number;
}

/** AI-crawler requests to one path in one UTC hour, as the zone's edge counted them. */
export interface CdnCrawlerHoursTable {
  workspace_id: string;
  hour: number;
  /** The crawler token of the service's crawler list (GPTBot, ClaudeBot, …). */
  crawler: string;
  path: string;
  operator: string | null;
  category: string;
  requests: number;
}

export type SiteBuilder = 'webflow' | 'wix';

/** A workspace's Webflow connection: the operator's app authorized by an owner (OAuth code grant). */
export interface WebflowConnectionsTable {
  workspace_id: string;
  /** Sealed (SECRETS_KEY); null while a connection is only in progress. */
  access_token: string | null;
  /** The OAuth state of a connection in progress (SHA-256), and when it expires. */
  state_hash: string | null;
  state_expires_at: number | null;
  connected_at: number | null;
  /** The user who connected it. */
  connected_by: string | null;
}

/**
 * `pending`: recorded, the builder being called; `installed`: live (Webflow: applied and published; Wix: embedded);
 * `unchanged`: it already was, nothing was sent; `awaiting_publish`: applied on Webflow, whose publish refused (one a
 * minute) until `retry_publish_at`; `failed`: see `error`.
 */
export type SiteBuilderInstallStatus = 'pending' | 'installed' | 'unchanged' | 'awaiting_publish' | 'failed';

export interface SitebuilderInstallsTable {
  id: string;
  workspace_id: string;
  builder: SiteBuilder;
  /** The Webflow site id, or the Wix app instance id. */
  target: string;
  status: SiteBuilderInstallStatus;
  /** Webflow's registered script id and version; null for Wix. */
  script_id: string | null;
  script_version: string | null;
  published_at: number | null;
  retry_publish_at: number | null;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

/** Where a backlink row came from: the backlink index, outreach, the owner, or the link network. */
export type BacklinkSource = 'index' | 'outreach' | 'managed' | 'network';
/** The specification's backlink statuses; the outreach stages are the prospect's (outreach_prospects). */
export type BacklinkStatus = 'discovered' | 'verified' | 'lost' | 'placed' | 'identified' | 'contacted' | 'replied' | 'link_placed' | 'rejected';
export type OutreachStage = 'identified' | 'contacted' | 'replied' | 'link_placed' | 'rejected';
/** How a prospect was found: a page citing a competitor in an engine answer, a competitor's referring domain, a page ranking for a tracked query, or the owner's import. */
export type ProspectOrigin = 'competitor_citation' | 'competitor_referrer' | 'ranking_page' | 'import';

export interface BacklinksTable {
  id: string;
  workspace_id: string;
  linking_url: string;
  linking_domain: string;
  target_url: string;
  anchor_text: string;
  dofollow: number;
  domain_authority: number | null;
  /** The name of the metric domain_authority is (for DataForSEO, `dataforseo_domain_rank`); never called DA when it is not. */
  authority_metric: string | null;
  status: BacklinkStatus;
  source: BacklinkSource;
  prospect_id: string | null;
  placement_id: string | null;
  /** When the link was first seen (the index's first_seen) or recorded; rows are listed newest first by it. */
  discovered_at: number;
  placed_at: number | null;
  last_verified_at: number | null;
  lost_at: number | null;
  status_changed_at: number;
  /** Why the last verification could not tell (the page did not answer); null when it could. */
  check_error: string | null;
  /** Verifications in a row whose page could not be read; at UNREADABLE_LIMIT (src/backlinks/verify.ts) the link counts as lost. */
  check_failures: Generated<number>;
  /** When verification looks at it next; null for rows that are not verified by the service (index rows). */
  next_check_at: number | null;
}

/** Kept by triggers on backlinks (migration 0022): rows per status, source and authority metric ('' for none). */
export interface BacklinkTalliesTable {
  workspace_id: string;
  status: BacklinkStatus;
  source: BacklinkSource;
  authority_metric: string;
  links: number;
  /** Of those, the rows with an authority, and the sum of it. */
  rated_links: number;
  authority_sum: number;
}

/** Kept by triggers on backlinks: live rows (not lost, not an outreach stage) per linking domain, and those the workspace built. */
export interface BacklinkDomainsTable {
  workspace_id: string;
  linking_domain: string;
  live_links: number;
  built_live_links: number;
}

export interface BacklinkMeasuresTable {
  id: string;
  workspace_id: string;
  /** `dataforseo` (summary) or `commoncrawl` (host graph release). */
  provider: string;
  indexed_backlinks: number | null;
  referring_domains: number | null;
  /** JSON: what the provider adds (the Common Crawl release, DataForSEO's nofollow and broken counts). */
  detail: string | null;
  measured_at: number;
}

export interface ReferringDomainsTable {
  workspace_id: string;
  /** The domain linked to: the workspace's website or a competitor's. */
  target_domain: string;
  referring_domain: string;
  /** `dataforseo` or `commoncrawl`. */
  provider: string;
  /** Links from that domain, when the provider counts them (the Common Crawl graph does not). */
  links: number | null;
  /** The provider's rank of the referring domain, named by the provider (DataForSEO's domain rank); null when none. */
  rank: number | null;
  measured_at: number;
}

export interface OutreachProspectsTable {
  id: string;
  workspace_id: string;
  domain: string;
  page_url: string | null;
  title: string | null;
  origin: ProspectOrigin;
  /** Why it is a prospect, in words (the competitor it cites, the query it ranks for). */
  reason: string;
  /** The workspace's page to pitch, when one is chosen. */
  target_url: string | null;
  stage: OutreachStage;
  stage_changed_at: number;
  contact_email: string | null;
  contact_name: string | null;
  /** 0 to 100. */
  contact_confidence: number | null;
  /** `hunter`, `site` (read from the prospect's pages) or `import`. */
  contact_source: string | null;
  contact_found_at: number | null;
  created_at: number;
}

/** The workspace's own mailbox: SMTP sends outreach, IMAP (optional) reads the replies. */
export interface OutreachMailboxesTable {
  workspace_id: string;
  from_name: string;
  from_address: string;
  smtp_host: string;
  smtp_port: number;
  /** 1: TLS from the first byte (port 465); 0: STARTTLS, required unless MAIL_ALLOW_INSECURE is set. */
  smtp_secure: number;
  smtp_user: string;
  /** Sealed with services.credentials. */
  smtp_password: string;
  imap_host: string | null;
  imap_port: number | null;
  imap_secure: number | null;
  imap_user: string | null;
  /** Sealed with services.credentials. */
  imap_password: string | null;
  /** Sends per UTC day; beyond it a send waits for the next day. */
  daily_cap: number;
  /** No second first-contact email to the same address within this many days. */
  quiet_days: number;
  imap_uid_validity: number | null;
  /** The highest UID read from INBOX under imap_uid_validity. */
  imap_last_uid: number | null;
  imap_checked_at: number | null;
  /** Why the last read of the inbox failed; null when it worked. */
  imap_error: string | null;
  created_at: number;
  updated_at: number;
}

export type OutreachDirection = 'out' | 'in';
export type OutreachMessageState = 'draft' | 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled' | 'received';
export type SuppressionReason = 'bounce' | 'opt_out' | 'asked' | 'manual';

/** One message of a prospect's thread: a draft, a send, or a message read from the mailbox. */
export interface OutreachMessagesTable {
  id: string;
  workspace_id: string;
  prospect_id: string;
  direction: OutreachDirection;
  state: OutreachMessageState;
  to_address: string;
  from_address: string;
  subject: string;
  body_text: string;
  /** The Message-ID header (with angle brackets): set when sent or read. */
  message_id: string | null;
  in_reply_to: string | null;
  /** Message-IDs separated by spaces, as in the header. */
  references: string | null;
  /** When a queued send goes out: now, or the next UTC day when the daily cap is used up. */
  queued_for: number | null;
  /** Sent: when the server accepted it; received: the Date header, else when it was read. */
  sent_at: number | null;
  error: string | null;
  job_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface OutreachSuppressionsTable {
  workspace_id: string;
  /** Lower-cased. */
  email: string;
  reason: SuppressionReason;
  created_at: number;
}

/** The `rel` a network link carries: `sponsored` by default, `nofollow`, or `dofollow` (no rel) as an explicit owner choice. */
export type LinkAttribute = 'sponsored' | 'nofollow' | 'dofollow';
export type PlacementState = 'proposed' | 'live' | 'declined' | 'retired';

export interface NetworkMembersTable {
  workspace_id: string;
  member: number;
  /** The rel of links this workspace hosts. */
  link_attribute: LinkAttribute;
  /** The first join: the starting credits are granted then, once. */
  first_joined_at: number;
  joined_at: number;
  left_at: number | null;
  last_match_at: number | null;
  /** What the last matching run proposed, or why it proposed nothing. */
  last_match_note: string | null;
}

export interface NetworkCreditsTable {
  id: string;
  workspace_id: string;
  /** +3 on first joining, +1 for a placement hosted, -1 for one received. */
  amount: number;
  reason: 'joined' | 'hosted' | 'received';
  placement_id: string | null;
  created_at: number;
}

export interface NetworkPlacementsTable {
  id: string;
  host_workspace_id: string;
  host_article_id: string;
  /** The host article's live URL when it was proposed. */
  host_url: string;
  target_workspace_id: string;
  target_kind: 'article' | 'page';
  /** The target article's or site page's id. */
  target_subject_id: string;
  target_url: string;
  target_title: string | null;
  anchor_text: string;
  /** Which anchor it is: the target's brand name, its page title, or its bare domain. */
  anchor_kind: 'brand' | 'title' | 'domain';
  rel: LinkAttribute;
  /** Cosine similarity of the host article's and the target page's embeddings. */
  similarity: number;
  language: string;
  state: PlacementState;
  host_approval_id: string | null;
  target_approval_id: string | null;
  host_approved_at: number | null;
  target_approved_at: number | null;
  proposed_at: number;
  live_at: number | null;
  /** When it was declined or retired. */
  ended_at: number | null;
  end_reason: string | null;
}

export interface NetworkEmbeddingsTable {
  workspace_id: string;
  /** An article's or a site page's id. */
  subject_id: string;
  /** SHA-256 of the text embedded. */
  text_hash: string;
  model: string;
  /** JSON list of numbers. */
  vector: string;
  embedded_at: number;
}

/** Where a social thread was found. */
export type SocialSourceName = 'hackernews' | 'stackexchange' | 'bluesky' | 'reddit';
/** The thread at its source when last checked: only `open` threads can still be answered. */
export type ThreadSourceState = 'open' | 'locked' | 'deleted' | 'archived';
/** The workspace's status for a thread; `closed` is set by the service when the source locked, deleted or archived it. */
export type SocialThreadStatus = 'new' | 'drafted' | 'replied' | 'dismissed' | 'closed';

export interface SocialThreadsTable {
  id: string;
  workspace_id: string;
  source: SocialSourceName;
  /** The thread's id at the source (HN objectID, `site:question_id`, an at:// URI, Reddit's fullname). */
  external_id: string;
  url: string;
  title: string;
  /** Plain text, at most 1,000 characters. */
  excerpt: string;
  /** Where it was posted: "Hacker News", a Stack Exchange site, "Bluesky", "r/<subreddit>". */
  community: string;
  author: string | null;
  posted_at: number;
  comments: number | null;
  points: number | null;
  /** The tracked query, brand or competitor name whose search found it. */
  matched_query: string;
  matched_kind: 'query' | 'brand' | 'competitor';
  /** 0–100: how well a reply from the workspace would answer the thread. */
  relevance: number;
  relevance_reason: string;
  /** `writer`: the writer model judged it; `terms`: no writer was configured, the matched words decided. */
  scored_by: 'writer' | 'terms';
  source_state: ThreadSourceState;
  state_checked_at: number;
  status: SocialThreadStatus;
  status_changed_at: number;
  reply_draft: string | null;
  reply_drafted_at: number | null;
  /** Where the reply was posted, when the person who posted it said so. */
  reply_url: string | null;
  first_seen_at: number;
  updated_at: number;
}

export interface SocialSourcePausesTable {
  source: SocialSourceName;
  /** The key or account the pause is for ('' for a source used without one). */
  account: string;
  until: number;
  reason: string;
}

export type SchedulerTool = 'postiz' | 'buffer' | 'typefully';
/** A channel format a draft is written for. */
export type RepurposeChannel = 'x' | 'linkedin' | 'bluesky' | 'threads' | 'mastodon' | 'facebook' | 'newsletter';
/** `draft` (editable), `queued` (a push job waits), `pushed` (in the scheduler), `failed` (the push failed), `posted`. */
export type RepurposeState = 'draft' | 'queued' | 'pushed' | 'failed' | 'posted';

export interface SchedulerConnectionsTable {
  workspace_id: string;
  tool: SchedulerTool;
  /** The API's base URL (Postiz self-hosted: `{backend}/public/v1`). */
  base_url: string;
  /** Sealed with SECRETS_KEY when configured. */
  api_key: string;
  /** Buffer's organization id or Typefully's social set id; null for Postiz. */
  account_id: string | null;
  checked_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface RepurposeDraftsTable {
  id: string;
  workspace_id: string;
  content_id: string;
  channel: RepurposeChannel;
  /** JSON list of strings: one post, or the parts of a thread in order. */
  posts: string;
  /** The article's URL with the UTM parameters the post links with. */
  link_url: string;
  state: RepurposeState;
  scheduler: SchedulerTool | null;
  scheduler_channel_id: string | null;
  scheduler_channel_name: string | null;
  /** When the scheduler is to publish it; null: pushed as a draft there. */
  scheduled_for: number | null;
  idempotency_key: string | null;
  push_job_id: string | null;
  /** The scheduler's id for the post. */
  external_id: string | null;
  external_url: string | null;
  pushed_at: number | null;
  posted_at: number | null;
  posted_url: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export type ChangeSeverity = 'critical' | 'warning' | 'info';

/** Something Sightline noticed on its own (src/changes/kinds.ts defines each kind), once per workspace and dedupe key. */
export interface ChangesTable {
  id: string;
  workspace_id: string;
  kind: string;
  severity: ChangeSeverity;
  /** What makes it the same change when found again (a job run twice, a sweep on two instances): recorded once. */
  dedupe_key: string;
  /** One plain-text line saying what changed. */
  title: string;
  /** JSON: the kind's figures (before and after, intervals, the engine's answers counted). */
  details: string;
  engine: EngineName | null;
  query_id: string | null;
  /** The check run whose answers showed it; null for changes not found by a run (a failed delivery). */
  run_id: string | null;
  detected_at: number;
}

/** The last known reachability of the site for one AI crawler token (src/changes/crawlerReach.ts). */
export interface CrawlerReachTable {
  workspace_id: string;
  token: string;
  /** 1: robots.txt lets it fetch the home page and the home page answered its user agent with a 2xx. */
  reachable: number;
  robots_allowed: number;
  home_status: number | null;
  /** When this state was first seen: names the flip that led to it. */
  since: number;
  checked_at: number;
}

/** Per tracked query and AI engine: the brand's result in its latest runs, oldest first, one letter a run (c cited, n not cited). */
export interface ChangeCellsTable {
  workspace_id: string;
  query_id: string;
  engine: EngineName;
  history: string;
  /** The run last added: a detection run again adds nothing. */
  last_run_id: string;
}

/** A workspace's rule for one change kind; a kind without a row follows its defaults. */
export interface AlertRulesTable {
  workspace_id: string;
  kind: string;
  enabled: number;
  /** The kind's threshold (its unit is in kinds.ts); null: the default. */
  threshold: number | null;
  /** JSON list: only these engines; null: every engine. */
  engines: string | null;
  /** JSON list: only these tracked queries; null: every query. */
  query_ids: string | null;
  updated_at: number;
}

export type AlertChannelKind = 'slack' | 'discord' | 'teams' | 'webhook';

/** Where a workspace's alerts go beside the people's inboxes. */
export interface AlertChannelsTable {
  id: string;
  workspace_id: string;
  kind: AlertChannelKind;
  name: string;
  /** The incoming-webhook URL (Slack, Discord, Teams), sealed with SECRETS_KEY: whoever holds it can post. */
  target_url: string | null;
  /** `webhook`: the webhook destination whose endpoint and signing secret the events use. */
  destination_id: string | null;
  /** Changes below this severity are not sent here. */
  min_severity: ChangeSeverity;
  created_at: number;
  removed_at: number | null;
}

export type NotificationSendState = 'pending' | 'sent' | 'failed' | 'skipped';

/** One alert message to one recipient (`channel:<id>` or `user:<id>`), recorded before it is sent. */
export interface AlertSendsTable {
  id: string;
  workspace_id: string;
  recipient_key: string;
  /** The batch it sends (the id of its newest change): the same batch to the same recipient is one row. */
  batch_key: string;
  /** JSON list of the change ids it carries. */
  change_ids: string;
  state: NotificationSendState;
  attempts: number;
  status_code: number | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A person's mail from one workspace; a person without a row gets the defaults (owners the digest, members nothing). */
export interface NotificationSettingsTable {
  workspace_id: string;
  user_id: string;
  /** 1 or 0; null: the role's default. */
  digest: number | null;
  alert_email: number | null;
  /** 0 Sunday .. 6 Saturday, and the hour, in time_zone (null: the workspace's). */
  digest_day: Generated<number>;
  digest_hour: Generated<number>;
  time_zone: string | null;
  /** The secret in the person's unsubscribe links (RFC 8058): it alone turns their mail off. */
  unsubscribe_token: string;
  updated_at: number;
}

/** One person's digest of one week (its Monday, YYYY-MM-DD), recorded before it is sent: sent once per person and week. */
export interface DigestSendsTable {
  workspace_id: string;
  user_id: string;
  week: string;
  state: NotificationSendState;
  attempts: number;
  message_id: string | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** The writer model's phrasing of the digest summary for one set of figures (src/changes/digest/summary.ts). */
export interface DigestSummariesTable {
  workspace_id: string;
  /** sha256 of the model and the template's sentences: the same figures phrased by the same model. */
  figures_hash: string;
  text: string;
  model: string;
  created_at: number;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  brands: BrandsTable;
  brand_guidelines: BrandGuidelinesTable;
  brand_products: BrandProductsTable;
  brand_icps: BrandIcpsTable;
  team_invites: TeamInvitesTable;
  billing_accounts: BillingAccountsTable;
  billing_addons: BillingAddonsTable;
  billing_payments: BillingPaymentsTable;
  support_messages: SupportMessagesTable;
  approvals: ApprovalsTable;
  sessions: SessionsTable;
  oauth_signing_keys: OAuthSigningKeysTable;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_grants: OAuthGrantsTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  device_authorizations: DeviceAuthorizationsTable;
  queries: QueriesTable;
  articles: ArticlesTable;
  site_pages: SitePagesTable;
  internal_links: InternalLinksTable;
  article_policies: ArticlePoliciesTable;
  destinations: DestinationsTable;
  destination_posts: DestinationPostsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  jobs: JobsTable;
  mcp_tasks: McpTasksTable;
  changes: ChangesTable;
  change_cells: ChangeCellsTable;
  crawler_reach: CrawlerReachTable;
  alert_rules: AlertRulesTable;
  alert_channels: AlertChannelsTable;
  alert_sends: AlertSendsTable;
  notification_settings: NotificationSettingsTable;
  digest_sends: DigestSendsTable;
  digest_summaries: DigestSummariesTable;
  mcp_task_jobs: McpTaskJobsTable;
  crawler_visits: CrawlerVisitsTable;
  competitors: CompetitorsTable;
  check_runs: CheckRunsTable;
  engine_answers: EngineAnswersTable;
  answer_mentions: AnswerMentionsTable;
  visibility_daily: VisibilityDailyTable;
  cited_domains_daily: CitedDomainsDailyTable;
  cited_pages_daily: CitedPagesDailyTable;
  agreement_daily: AgreementDailyTable;
  rank_checks: RankChecksTable;
  rank_latest: RankLatestTable;
  query_latest: QueryLatestTable;
  search_console_queries: SearchConsoleQueriesTable;
  search_console_connections: SearchConsoleConnectionsTable;
  search_console_rows: SearchConsoleRowsTable;
  named_locks: NamedLocksTable;
  sweep_claims: SweepClaimsTable;
  provider_slots: ProviderSlotsTable;
  rate_limits: RateLimitsTable;
  writer_usage: WriterUsageTable;
  analytics_screens: AnalyticsScreensTable;
  analytics_sites: AnalyticsSitesTable;
  counter_salts: CounterSaltsTable;
  counter_visitors: CounterVisitorsTable;
  counter_sessions: CounterSessionsTable;
  counter_days: CounterDaysTable;
  counter_page_days: CounterPageDaysTable;
  counter_page_weeks: CounterPageWeeksTable;
  counter_source_days: CounterSourceDaysTable;
  counter_referrers: CounterReferrersTable;
  leads: LeadsTable;
  site_analytics_connections: SiteAnalyticsConnectionsTable;
  ga4_authorizations: Ga4AuthorizationsTable;
  cdn_connections: CdnConnectionsTable;
  cdn_authorizations: CdnAuthorizationsTable;
  cdn_crawler_hours: CdnCrawlerHoursTable;
  webflow_connections: WebflowConnectionsTable;
  sitebuilder_installs: SitebuilderInstallsTable;
  backlinks: BacklinksTable;
  backlink_tallies: BacklinkTalliesTable;
  backlink_domains: BacklinkDomainsTable;
  backlink_measures: BacklinkMeasuresTable;
  referring_domains: ReferringDomainsTable;
  outreach_prospects: OutreachProspectsTable;
  outreach_mailboxes: OutreachMailboxesTable;
  outreach_messages: OutreachMessagesTable;
  outreach_suppressions: OutreachSuppressionsTable;
  network_members: NetworkMembersTable;
  network_credits: NetworkCreditsTable;
  network_placements: NetworkPlacementsTable;
  network_embeddings: NetworkEmbeddingsTable;
  social_threads: SocialThreadsTable;
  social_source_pauses: SocialSourcePausesTable;
  scheduler_connections: SchedulerConnectionsTable;
  repurpose_drafts: RepurposeDraftsTable;
}
