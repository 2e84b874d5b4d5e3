import { z } from 'zod';
import { DataForSeoApi, type TaskAnswer } from './api.js';
import type { LimiterStore } from '../../limits/store.js';
import { domainOf } from '../../shared/urls.js';
import { type AskOptions, type Citation, EngineError, normaliseCitations } from '../../visibility/engines/engine.js';
import type { EngineTuning } from '../../visibility/engines/providerHttp.js';
import { canBeCompanySite } from '../../visibility/serp/officialSite.js';
import { searchLocation } from '../../visibility/serp/searchLocation.js';
import type { AiOverview, OrganicResult, SerpClient } from '../../visibility/serp/serp.js';

/** Ranks are recorded in the top 30 (the specification); a website look-up needs only the first page. */
const RANK_DEPTH = 30;
const LOOKUP_DEPTH = 10;
/** The limiter slots of the SERP provider's account; the backlink index shares them when it uses the same account. */
export const SERP_LIMIT_NAME = 'serp';

/** A SERP task's result: one page whose items are the results and features of the search page. */
const serpResultSchema = z.object({ items: z.array(z.unknown()).nullish() });

const organicItemSchema = z.object({
  type: z.literal('organic'),
  rank_group: z.number().int().positive(),
  url: z.string(),
  title: z.string().nullish(),
});
const referenceSchema = z.object({ url: z.string().nullish(), title: z.string().nullish(), source: z.string().nullish() });
const aiOverviewItemSchema = z.object({
  type: z.literal('ai_overview'),
  markdown: z.string().nullish(),
  items: z.array(z.object({ text: z.string().nullish(), markdown: z.string().nullish(), references: z.array(referenceSchema).nullish() })).nullish(),
  references: z.array(referenceSchema).nullish(),
});

interface RawPage {
  items: unknown[];
  version: string;
  latencyMs: number;
}

/** The items of the task's page. */
function readPage({ result, version }: TaskAnswer): { items: unknown[]; version: string } {
  if (result.length === 0) return { items: [], version };
  const page = serpResultSchema.safeParse(result[0]);
  if (!page.success) throw new EngineError('DataForSEO', 'bad_response', 'DataForSEO answered a SERP task without a page of items');
  return { items: page.data.items ?? [], version };
}

function organicResults(items: unknown[], depth: number): OrganicResult[] {
  const results: OrganicResult[] = [];
  for (const item of items) {
    const organic = organicItemSchema.safeParse(item);
    if (!organic.success || organic.data.rank_group > depth) continue;
    const domain = domainOf(organic.data.url);
    if (domain === undefined) continue;
    results.push({ position: organic.data.rank_group, url: organic.data.url, domain, title: organic.data.title ?? null });
  }
  return results.sort((a, b) => a.position - b.position);
}

function aiOverviewOf(items: unknown[]): AiOverview {
  const found = items.map((item) => aiOverviewItemSchema.safeParse(item)).find((parsed) => parsed.success);
  if (found?.data === undefined) return { shown: false, text: '', references: [] };
  const overview = found.data;
  const sections = overview.items ?? [];
  const text = overview.markdown ?? sections.map((section) => section.markdown ?? section.text ?? '').filter((part) => part !== '').join('\n\n');
  // The overview's own list is the final one; older answers only carry references per section.
  const listed = overview.references ?? sections.flatMap((section) => section.references ?? []);
  const references: Citation[] = normaliseCitations(listed.flatMap((ref) => (ref.url ? [{ url: ref.url, title: ref.title ?? ref.source ?? null }] : [])));
  return { shown: true, text: text.trim(), references };
}

export interface SerpSettings {
  baseUrl: string;
  login: string;
  password: string;
  /** SERP_RPM */
  perMinute: number;
}

/**
 * A SERP client for DataForSEO's v3 API (or one compatible with it): live "advanced" SERPs, one task per request, with
 * HTTP Basic authentication. Google's organic results come with the AI overview (asked to load when Google loads it
 * late); Bing's with Copilot's answer, which DataForSEO gives as an `ai_overview` item of the same shape. Requests wait
 * for a free slot below the engine concurrency, whoever asks: rank checks, the AI-answer engines and website look-ups
 * share it.
 */
class DataForSeoClient implements SerpClient {
  private readonly api: DataForSeoApi;

  constructor(settings: SerpSettings, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>) {
    this.api = new DataForSeoApi(settings, tuning, store, SERP_LIMIT_NAME);
  }

  async google(query: string, options: AskOptions) {
    const page = await this.serp('google', { keyword: query, ...searchLocation(options.locale), depth: RANK_DEPTH, load_async_ai_overview: true });
    return { organic: organicResults(page.items, RANK_DEPTH), aiOverview: aiOverviewOf(page.items), model: page.version, latencyMs: page.latencyMs };
  }

  close(): Promise<void> {
    return this.api.close();
  }

  async bing(query: string, options: AskOptions) {
    const page = await this.serp('bing', { keyword: query, ...searchLocation(options.locale), depth: RANK_DEPTH });
    return { organic: organicResults(page.items, RANK_DEPTH), aiOverview: aiOverviewOf(page.items), model: page.version, latencyMs: page.latencyMs };
  }

  /** The first organic result for the name that can be a company's own site (see officialSite.ts), as an origin. */
  async findWebsite(name: string, options: AskOptions = { locale: 'en' }): Promise<string | undefined> {
    const page = await this.serp('google', { keyword: name, ...searchLocation(options.locale), depth: LOOKUP_DEPTH });
    const site = organicResults(page.items, LOOKUP_DEPTH).find((result) => canBeCompanySite(result.url));
    return site === undefined ? undefined : new URL(site.url).origin;
  }

  private async serp(engine: 'google' | 'bing', task: Record<string, unknown>): Promise<RawPage> {
    const { value, latencyMs } = await this.api.post(`/v3/serp/${engine}/organic/live/advanced`, task, readPage);
    return { ...value, latencyMs };
  }
}

export function createSerpClient(settings: SerpSettings | undefined, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>): SerpClient | undefined {
  return settings === undefined ? undefined : new DataForSeoClient(settings, tuning, store);
}
