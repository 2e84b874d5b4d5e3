import { getPublicSuffix } from 'tldts';
import type { VisitSource } from '../../db/schema.js';

// The database keeps these values, so db/ declares them (db/ imports nothing from src/).
export { VISIT_SOURCES, type VisitSource } from '../../db/schema.js';

/**
 * Where a referrer or a utm_source points. A host pattern matches that host exactly (`www.` aside); `*.` in front
 * also admits its subdomains; `.*` at the end stands for any public suffix (google.co.uk, yandex.com.tr); a path after
 * the host (`bing.com/chat`) must start the referrer's path. Android apps refer as `android-app://<package>`, so a
 * package name is a host here.
 */
interface SourcePatterns {
  hosts: readonly string[];
  /**
   * utm_source values (and the names analytics providers report the source under) besides the entry's own name, compared
   * without case, spaces or punctuation. A value shaped like a host is also matched against `hosts`.
   */
  utmSources: readonly string[];
}

/** An answer engine whose visitors arrive with its referrer or its utm_source. */
export interface AiEngine extends SourcePatterns {
  engine: string;
}

/** A search engine or a social network. */
export interface KnownSource extends SourcePatterns {
  name: string;
}

/**
 * The answer engines, maintained here and nowhere else. The first five are the engines the service checks; the rest
 * are reported under their own names. They come before the search engines and social networks, whose hosts some of
 * them share (gemini.google.com, bing.com/chat, x.com/i/grok, kagi.com/assistant).
 */
export const AI_ENGINES: readonly AiEngine[] = [
  { engine: 'chatgpt', hosts: ['chatgpt.com', '*.chatgpt.com', 'chat.openai.com', 'com.openai.chatgpt'], utmSources: ['chatgpt.com', 'chat.openai.com'] },
  { engine: 'perplexity', hosts: ['*.perplexity.ai', 'pplx.ai', 'ai.perplexity.android'], utmSources: ['perplexity.ai'] },
  { engine: 'gemini', hosts: ['gemini.google.com', 'bard.google.com'], utmSources: ['gemini.google.com', 'bard'] },
  { engine: 'claude', hosts: ['claude.ai', 'com.anthropic.claude'], utmSources: ['claude.ai'] },
  {
    engine: 'copilot',
    hosts: ['copilot.microsoft.com', 'bing.com/chat', 'edgeservices.bing.com', 'copilot.cloud.microsoft', 'm365.cloud.microsoft/chat'],
    utmSources: ['copilot.microsoft.com'],
  },
  { engine: 'deepseek', hosts: ['chat.deepseek.com'], utmSources: ['chat.deepseek.com'] },
  { engine: 'meta_ai', hosts: ['meta.ai', '*.meta.ai'], utmSources: ['meta.ai'] },
  { engine: 'mistral', hosts: ['chat.mistral.ai'], utmSources: ['le chat', 'chat.mistral.ai'] },
  { engine: 'you', hosts: ['you.com'], utmSources: ['you.com'] },
  { engine: 'phind', hosts: ['phind.com'], utmSources: ['phind.com'] },
  { engine: 'poe', hosts: ['poe.com'], utmSources: ['poe.com'] },
  { engine: 'grok', hosts: ['grok.com', 'x.com/i/grok'], utmSources: ['grok.com'] },
  { engine: 'kagi_assistant', hosts: ['kagi.com/assistant'], utmSources: [] },
  { engine: 'huggingchat', hosts: ['huggingface.co/chat'], utmSources: [] },
  { engine: 'qwen', hosts: ['chat.qwen.ai'], utmSources: [] },
  { engine: 'kimi', hosts: ['kimi.com', 'kimi.moonshot.cn'], utmSources: [] },
  { engine: 'notebooklm', hosts: ['notebooklm.google.com'], utmSources: [] },
  { engine: 'duck_ai', hosts: ['duck.ai'], utmSources: ['duck.ai'] },
];

export const SEARCH_ENGINES: readonly KnownSource[] = [
  { name: 'google', hosts: ['google.*', 'images.google.*', 'com.google.android.googlequicksearchbox'], utmSources: ['adwords', 'google ads'] },
  { name: 'bing', hosts: ['*.bing.com'], utmSources: [] },
  { name: 'duckduckgo', hosts: ['duckduckgo.com', 'html.duckduckgo.com', 'lite.duckduckgo.com'], utmSources: ['ddg'] },
  { name: 'yahoo', hosts: ['*.search.yahoo.*', 'yahoo.co.jp'], utmSources: ['yahoo!'] },
  { name: 'ecosia', hosts: ['ecosia.org'], utmSources: [] },
  { name: 'brave', hosts: ['search.brave.com'], utmSources: ['brave search'] },
  { name: 'yandex', hosts: ['yandex.*', 'ya.ru'], utmSources: [] },
  { name: 'baidu', hosts: ['*.baidu.com'], utmSources: [] },
  { name: 'startpage', hosts: ['startpage.com'], utmSources: [] },
  { name: 'qwant', hosts: ['qwant.com', 'lite.qwant.com'], utmSources: [] },
  { name: 'kagi', hosts: ['kagi.com'], utmSources: [] },
  { name: 'naver', hosts: ['search.naver.com', 'm.search.naver.com'], utmSources: [] },
  { name: 'seznam', hosts: ['search.seznam.cz'], utmSources: [] },
  { name: 'sogou', hosts: ['*.sogou.com'], utmSources: [] },
  { name: 'aol', hosts: ['search.aol.com'], utmSources: [] },
  { name: 'mojeek', hosts: ['mojeek.com'], utmSources: [] },
];

export const SOCIAL_NETWORKS: readonly KnownSource[] = [
  { name: 'facebook', hosts: ['*.facebook.com', 'fb.me', 'm.me'], utmSources: ['fb', 'fb-ads', 'fbads', 'facebook-ads', 'facebook_ads', 'fcb'] },
  { name: 'instagram', hosts: ['*.instagram.com'], utmSources: ['ig'] },
  { name: 'linkedin', hosts: ['*.linkedin.com', 'lnkd.in', 'com.linkedin.android'], utmSources: [] },
  { name: 'x', hosts: ['x.com', 'twitter.com', 'mobile.twitter.com', 't.co'], utmSources: ['twitter'] },
  { name: 'reddit', hosts: ['*.reddit.com', 'redd.it', 'com.reddit.frontpage'], utmSources: [] },
  { name: 'youtube', hosts: ['*.youtube.com', 'youtu.be'], utmSources: ['yt'] },
  { name: 'pinterest', hosts: ['*.pinterest.*', 'pin.it'], utmSources: [] },
  { name: 'tiktok', hosts: ['*.tiktok.com'], utmSources: [] },
  { name: 'bluesky', hosts: ['bsky.app', 'bsky.social'], utmSources: [] },
  { name: 'threads', hosts: ['threads.net', 'threads.com'], utmSources: [] },
  { name: 'mastodon', hosts: ['mastodon.social', 'mastodon.online', 'mstdn.social', 'mas.to', 'fosstodon.org', 'hachyderm.io', 'infosec.exchange'], utmSources: [] },
  { name: 'tumblr', hosts: ['*.tumblr.com'], utmSources: [] },
  { name: 'vk', hosts: ['vk.com', 'm.vk.com'], utmSources: [] },
  { name: 'weibo', hosts: ['weibo.com', 'm.weibo.cn'], utmSources: [] },
];

/** Federated networks have thousands of servers; most name themselves like these. */
const MASTODON_LIKE = /^(mastodon|mstdn)\./;
const ORGANIC_MEDIUMS = new Set(['organic']);
const SOCIAL_MEDIUMS = new Set(['social', 'socialnetwork', 'socialmedia', 'sm']);
/** What providers write for a visit without a referrer: Plausible's "Direct / None", GA4's "(direct)" and "(none)". */
const DIRECT_LABELS = new Set(['', 'direct', 'directnone', 'none']);

export interface VisitInput {
  /** The referrer as a URL, a bare host (`google.com/search`), or the name a provider reports the source under. */
  referrer?: string | null;
  utmSource?: string | null;
  utmMedium?: string | null;
  /** The site's own host: a referrer from it is navigation inside the site, so the visit counts as direct. */
  siteHost?: string | null;
}

export interface VisitClassification {
  source: VisitSource;
  /** The answer engine, for `ai`; null otherwise. */
  engine: string | null;
  /** The referrer's host, lower-case and without `www.`; null without a readable referrer. */
  referrerHost: string | null;
}

interface Place {
  host: string;
  path: string;
}

type Referrer = { kind: 'none' } | { kind: 'place'; place: Place } | { kind: 'label'; label: string } | { kind: 'unreadable' };

function normaliseHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

/** Lower-case, without spaces or punctuation other than dots: "Brave Search", "Yahoo!" and "Direct / None" meet their spellings in the lists. */
function labelKey(label: string): string {
  return normaliseHost(label.trim()).replace(/[^a-z0-9.]/g, '');
}

const HOST_LIKE = /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?([/?#].*)?$/i;

function placeOf(url: string): Place | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (!['http:', 'https:', 'android-app:'].includes(parsed.protocol) || parsed.hostname === '') return undefined;
  return { host: normaliseHost(parsed.hostname), path: parsed.pathname };
}

function readReferrer(referrer: string | null | undefined): Referrer {
  const value = referrer?.trim() ?? '';
  if (DIRECT_LABELS.has(labelKey(value))) return { kind: 'none' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !HOST_LIKE.test(value)) {
    const place = placeOf(value);
    return place === undefined ? { kind: 'unreadable' } : { kind: 'place', place };
  }
  // Plausible and Umami report referrers without their scheme: google.com/search, chatgpt.com.
  if (HOST_LIKE.test(value)) {
    const place = placeOf(`https://${value}`);
    return place === undefined ? { kind: 'unreadable' } : { kind: 'place', place };
  }
  return { kind: 'label', label: value };
}

/** The host with its public suffix replaced by `*`, for the patterns that accept any suffix; undefined without a known suffix. */
function withAnySuffix(host: string): string | undefined {
  const suffix = getPublicSuffix(host, { allowPrivateDomains: false });
  if (suffix === null || host === suffix || !host.endsWith(`.${suffix}`)) return undefined;
  return `${host.slice(0, -suffix.length - 1)}.*`;
}

function hostMatches(pattern: string, host: string): boolean {
  const candidate = pattern.endsWith('.*') ? withAnySuffix(host) : host;
  if (candidate === undefined) return false;
  if (pattern.startsWith('*.')) {
    const parent = pattern.slice(2);
    return candidate === parent || candidate.endsWith(`.${parent}`);
  }
  return candidate === pattern;
}

function placeMatches(pattern: string, place: Place): boolean {
  const slash = pattern.indexOf('/');
  const host = slash === -1 ? pattern : pattern.slice(0, slash);
  if (!hostMatches(host, place.host)) return false;
  if (slash === -1) return true;
  const path = pattern.slice(slash);
  return place.path === path || place.path.startsWith(`${path}/`);
}

interface Known {
  source: 'search' | 'ai' | 'social';
  engine: string | null;
}

const KNOWN: ReadonlyArray<{ source: Known['source']; name: string; patterns: SourcePatterns; engine: string | null }> = [
  ...AI_ENGINES.map((entry) => ({ source: 'ai' as const, name: entry.engine, patterns: entry, engine: entry.engine })),
  ...SEARCH_ENGINES.map((entry) => ({ source: 'search' as const, name: entry.name, patterns: entry, engine: null })),
  ...SOCIAL_NETWORKS.map((entry) => ({ source: 'social' as const, name: entry.name, patterns: entry, engine: null })),
];

function knownPlace(place: Place): Known | undefined {
  const entry = KNOWN.find((known) => known.patterns.hosts.some((pattern) => placeMatches(pattern, place)));
  if (entry !== undefined) return { source: entry.source, engine: entry.engine };
  return MASTODON_LIKE.test(place.host) ? { source: 'social', engine: null } : undefined;
}

/** A utm_source value or a provider's name for a source: a listed name or alias, or a host that a pattern (without path) admits. */
function knownLabel(label: string): Known | undefined {
  const key = labelKey(label);
  if (key === '') return undefined;
  const entry = KNOWN.find((known) => labelKey(known.name) === key || known.patterns.utmSources.some((alias) => labelKey(alias) === key));
  if (entry !== undefined) return { source: entry.source, engine: entry.engine };
  return HOST_LIKE.test(key) ? knownPlace({ host: key, path: '/' }) : undefined;
}

function isOwnHost(host: string, siteHost: string | undefined): boolean {
  return siteHost !== undefined && host === siteHost;
}

/**
 * The traffic source of one visit (or of one row a provider reports). A utm_source that names a known source wins over
 * the referrer; then the referrer: absent or the site's own host is direct, else an answer engine, a search engine or a
 * social network by host (and path), else other. utm_medium (organic, social) decides only what neither names. A
 * campaign tag nobody knows is other, not direct: someone did tag the link.
 */
export function classifyVisitSource(input: VisitInput): VisitClassification {
  const site = input.siteHost?.trim() ?? '';
  const siteHost = site === '' ? undefined : placeOf(site.includes('://') ? site : `https://${site}`)?.host;
  const referrer = readReferrer(input.referrer);
  const referrerHost = referrer.kind === 'place' ? referrer.place.host : null;
  const result = (source: VisitSource, engine: string | null = null): VisitClassification => ({ source, engine, referrerHost });

  const utmSource = input.utmSource?.trim() ?? '';
  const tagged = utmSource === '' ? undefined : knownLabel(utmSource);
  if (tagged !== undefined) return result(tagged.source, tagged.engine);

  if (referrer.kind === 'place' && isOwnHost(referrer.place.host, siteHost)) return result('direct');
  const referred = referrer.kind === 'place' ? knownPlace(referrer.place) : referrer.kind === 'label' ? knownLabel(referrer.label) : undefined;
  if (referred !== undefined) return result(referred.source, referred.engine);

  const medium = labelKey(input.utmMedium ?? '');
  if (ORGANIC_MEDIUMS.has(medium)) return result('search');
  if (SOCIAL_MEDIUMS.has(medium)) return result('social');

  if (referrer.kind !== 'none') return result('other');
  const tagKey = labelKey(utmSource);
  if (DIRECT_LABELS.has(tagKey) || isOwnHost(tagKey, siteHost)) return result('direct');
  return result('other');
}
