import { z } from 'zod';
import type { SerpSettings } from '../../config.js';
import { providerLimits } from '../../limits/providerLimits.js';
import type { LimiterStore, ProviderSlots } from '../../limits/store.js';
import { type AskOptions, type Citation, domainOf, EngineError, normaliseCitations } from '../engines/engine.js';
import type { EngineTuning } from '../engines/index.js';
import { ProviderHttp, TransientEngineError } from '../engines/providerHttp.js';
import { canBeCompanySite } from './officialSite.js';
import { searchLocation } from './searchLocation.js';
import type { AiOverview, OrganicResult, SerpClient } from './serp.js';

/** Ranks are recorded in the top 30 (the specification); a website look-up needs only the first page. */
const RANK_DEPTH = 30;
const LOOKUP_DEPTH = 10;

// DataForSEO answers HTTP 200 for most failures; its own status_code says what happened (docs: appendix/errors).
const OK = 20000;
const NO_SEARCH_RESULTS = 40102;
/** Per-minute rate limit, and more than 30 simultaneous requests. */
const RATE_LIMITED = new Set([40202, 40209]);
/** Worth another attempt: the search engine or a task failed on their side, or the service is busy or updating. */
const TRANSIENT = new Set([40101, 40103, 50000, 50301, 50303, 50401]);

const taskSchema = z.object({
  status_code: z.number(),
  status_message: z.string().nullish(),
  result: z.array(z.object({ items: z.array(z.unknown()).nullish() })).nullish(),
});
const envelopeSchema = z.object({
  version: z.string().nullish(),
  status_code: z.number(),
  status_message: z.string().nullish(),
  tasks: z.array(taskSchema).nullish(),
});

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

function statusProblem(code: number, message: string | null | undefined): string {
  return `DataForSEO status ${code}: ${message ?? 'no message'}`;
}

/** The items of the one task's result; a task error is thrown as an EngineError (retried when it is worth it). */
function readPage(json: unknown): { items: unknown[]; version: string } {
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('bad_response', 'DataForSEO answered without status_code');
  const envelope = parsed.data;
  const task = envelope.tasks?.[0];
  const code = envelope.status_code !== OK ? envelope.status_code : (task?.status_code ?? envelope.status_code);
  const message = envelope.status_code !== OK ? envelope.status_message : task?.status_message;
  if (code === OK && task === undefined) throw new EngineError('bad_response', 'DataForSEO answered without a task');
  const version = `dataforseo-${envelope.version ?? 'v3'}`;
  if (code === NO_SEARCH_RESULTS) return { items: [], version };
  if (RATE_LIMITED.has(code)) throw new TransientEngineError('rate_limited', statusProblem(code, message));
  if (TRANSIENT.has(code)) throw new TransientEngineError('provider_error', statusProblem(code, message));
  if (code !== OK) throw new EngineError('provider_error', statusProblem(code, message));
  return { items: task?.result?.[0]?.items ?? [], version };
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

/**
 * A SERP client for DataForSEO's v3 API (or one compatible with it): live "advanced" SERPs, one task per request, with
 * HTTP Basic authentication. Google's organic results come with the AI overview (asked to load when Google loads it
 * late); Bing's with Copilot's answer, which DataForSEO gives as an `ai_overview` item of the same shape. Requests wait
 * for a free slot below the engine concurrency, whoever asks: rank checks, the AI-answer engines and website look-ups
 * share it.
 */
class DataForSeoClient implements SerpClient {
  private readonly http: ProviderHttp;
  private readonly slots: ProviderSlots;
  private readonly authorization: string;

  constructor(
    private readonly settings: SerpSettings,
    tuning: EngineTuning,
    store: Pick<LimiterStore, 'slots' | 'limiter'>,
  ) {
    this.http = new ProviderHttp('DataForSEO', tuning);
    this.slots = providerLimits(store, 'serp', { concurrency: tuning.concurrency, perMinute: settings.perMinute });
    this.authorization = `Basic ${Buffer.from(`${settings.login}:${settings.password}`).toString('base64')}`;
  }

  async google(query: string, options: AskOptions) {
    const page = await this.serp('google', { keyword: query, ...searchLocation(options.locale), depth: RANK_DEPTH, load_async_ai_overview: true });
    return { organic: organicResults(page.items, RANK_DEPTH), aiOverview: aiOverviewOf(page.items), model: page.version, latencyMs: page.latencyMs };
  }

  close(): Promise<void> {
    return this.http.close();
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
    const { value, latencyMs } = await this.slots.run(() =>
      this.http.postJson(
        { url: `${this.settings.baseUrl}/v3/serp/${engine}/organic/live/advanced`, headers: { authorization: this.authorization }, body: [task] },
        readPage,
      ),
    );
    return { ...value, latencyMs };
  }
}

export function createSerpClient(settings: SerpSettings | undefined, tuning: EngineTuning, store: Pick<LimiterStore, 'slots' | 'limiter'>): SerpClient | undefined {
  return settings === undefined ? undefined : new DataForSeoClient(settings, tuning, store);
}
