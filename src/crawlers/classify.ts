import { readFileSync } from 'node:fs';

/**
 * What a crawler visit was for, from the ai.robots.txt entry, first rule that applies: assistant_fetch (function
 * "AI Assistants", "AI Agents" or "AI Coding Agents", or fetches on a user's prompt or query), search_index (function
 * mentions search), training (function mentions training, LLMs, machine learning, datasets or scraping, or the
 * description says it trains), else other ("AI Data Providers", undocumented agents). Agents only on the
 * crawler-user-agents list: search_engine when tagged search-engine, else other.
 */
export type CrawlerCategory = 'training' | 'search_index' | 'assistant_fetch' | 'search_engine' | 'other';

export interface Classification {
  /** The ai.robots.txt token, the crawler-user-agents match, or `unknown`. */
  crawler: string;
  category: CrawlerCategory;
  /** Who runs it, when the list says. */
  operator: string | null;
}

interface AiRobotsEntry {
  operator?: string;
  function?: string;
  frequency?: string;
  description?: string;
  /** The token is always followed by a version: `Code/1.2`. */
  has_name_and_version?: boolean;
}

interface CrawlerUserAgent {
  pattern: string;
  tags?: string[];
}

function readData<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8')) as T;
}

const ASSISTANT = /^AI (?:Assistants|Agents|Coding Agents)$|user prompts|user-initiated|user queries/i;

function categoryOf(entry: AiRobotsEntry): CrawlerCategory {
  const purpose = (entry.function ?? '').trim();
  if (ASSISTANT.test(purpose) || /only when prompted/i.test(entry.frequency ?? '')) return 'assistant_fetch';
  if (/\bsearch\b/i.test(purpose)) return 'search_index';
  if (/train|LLM|machine learning|dataset|scrap/i.test(purpose) || /\btrain/i.test(entry.description ?? '')) return 'training';
  return 'other';
}

/** "[OpenAI](https://openai.com)" reads as OpenAI; the list's "Unclear at this time." as unknown. */
function operatorOf(entry: AiRobotsEntry): string | null {
  const text = (entry.operator ?? '').trim();
  if (text === '' || /^(?:unclear|unknown)/i.test(text)) return null;
  return (/^\[([^\]]+)\]\(/.exec(text)?.[1] ?? text).slice(0, 200);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface TokenMatcher {
  token: string;
  pattern: RegExp;
  category: CrawlerCategory;
  operator: string | null;
}

// Compiled once. A token counts only as a product name of its own: not inside a word (Spider is not Baiduspider)
// nor inside a URL (…/search/spider.html). Longest first, so that Applebot-Extended wins over Applebot.
const AI_ROBOTS: TokenMatcher[] = Object.entries(readData<Record<string, AiRobotsEntry>>('ai-robots.json'))
  .sort(([a], [b]) => b.length - a.length)
  .map(([token, entry]) => ({
    token,
    pattern: new RegExp(`(?<![\\w./-])${escapeRegExp(token)}${entry.has_name_and_version ? '/' : '(?![\\w.@-])'}`, 'i'),
    category: categoryOf(entry),
    operator: operatorOf(entry),
  }));

/**
 * Each ai.robots.txt token (longest first) with the source of the pattern it is matched with (case-insensitively):
 * `npm run export` writes them into the @sightline/site package and the WordPress plugin, so a site reports exactly
 * the visits this module counts as AI crawlers.
 */
export const AI_CRAWLER_PATTERNS: ReadonlyArray<readonly [token: string, pattern: string]> = AI_ROBOTS.map(({ token, pattern }) => [token, pattern.source]);

/** Every ai.robots.txt crawler (longest token first), for reports per crawler such as the robots.txt probe. */
export const AI_CRAWLERS: readonly Classification[] = AI_ROBOTS.map(({ token, category, operator }) => ({ crawler: token, category, operator }));

const CRAWLER_USER_AGENTS = readData<CrawlerUserAgent[]>('crawler-user-agents.json').map((entry) => ({
  pattern: new RegExp(entry.pattern),
  category: (entry.tags ?? []).includes('search-engine') ? ('search_engine' as const) : ('other' as const),
}));

export const UNKNOWN_CRAWLER: Classification = { crawler: 'unknown', category: 'other', operator: null };

/** Which crawler sent this user agent: the ai.robots.txt list first, then crawler-user-agents' patterns. */
export function classifyUserAgent(userAgent: string): Classification {
  for (const matcher of AI_ROBOTS) {
    if (matcher.pattern.test(userAgent)) return { crawler: matcher.token, category: matcher.category, operator: matcher.operator };
  }
  for (const matcher of CRAWLER_USER_AGENTS) {
    const match = matcher.pattern.exec(userAgent);
    if (match !== null) return { crawler: match[0].replace(/[^\w)]+$/, '').slice(0, 100), category: matcher.category, operator: null };
  }
  return UNKNOWN_CRAWLER;
}
