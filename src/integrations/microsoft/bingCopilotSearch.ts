import { z } from 'zod';
import { type AnswerEngine, type AskOptions, type EngineAnswer, EngineError, normaliseCitations } from '../../visibility/engines/engine.js';
import { type EngineTuning, ProviderHttp } from '../../visibility/engines/providerHttp.js';

// One shape for both providers: SerpApi sends `text_blocks` and `references`, SearchApi `text_blocks`, `markdown` and
// `reference_links`. A block's words are in `snippet` (SerpApi) or `text` (SearchApi); lists nest their items.
interface TextBlock {
  type?: string | null;
  snippet?: string | null;
  text?: string | null;
  code?: string | null;
  list?: TextBlock[] | null;
  items?: TextBlock[] | null;
}
const textBlockSchema: z.ZodType<TextBlock> = z.lazy(() =>
  z
    .object({
      type: z.string().nullish(),
      snippet: z.string().nullish(),
      text: z.string().nullish(),
      code: z.string().nullish(),
      list: z.array(textBlockSchema).nullish(),
      items: z.array(textBlockSchema).nullish(),
    })
    .loose(),
);
const referenceSchema = z.object({ index: z.number().nullish(), title: z.string().nullish(), link: z.string().nullish(), source: z.string().nullish() }).loose();
const responseSchema = z
  .object({
    error: z.string().nullish(),
    search_metadata: z.object({ status: z.string().nullish() }).loose().nullish(),
    markdown: z.string().nullish(),
    text_blocks: z.array(textBlockSchema).nullish(),
    references: z.array(referenceSchema).nullish(),
    reference_links: z.array(referenceSchema).nullish(),
  })
  .loose();

/** The providers' words for "Copilot gave no answer to this query" (SerpApi: "Bing Copilot hasn't returned any results for this query."). */
const NO_ANSWER = /hasn't returned any results|no results/i;

function blockText(block: TextBlock): string {
  const own = block.snippet ?? block.text ?? block.code ?? '';
  const nested = [...(block.list ?? []), ...(block.items ?? [])].map((item) => `- ${blockText(item)}`);
  return [own, ...nested].filter((part) => part.trim() !== '').join('\n');
}

type Read = { shown: false } | { shown: true; text: string; references: Array<{ url: string; title: string | null }> };

function readAnswer(json: unknown): Read {
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('the Copilot search provider', 'bad_response', 'the Copilot search provider answered without an object');
  const answer = parsed.data;
  if (answer.error) {
    if (NO_ANSWER.test(answer.error)) return { shown: false };
    throw new EngineError('the Copilot search provider', 'provider_error', `the Copilot search provider: ${answer.error.slice(0, 300)}`);
  }
  if (answer.search_metadata?.status === 'Error') throw new EngineError('the Copilot search provider', 'provider_error', 'the Copilot search provider reported an error without a message');
  const text = (answer.markdown ?? (answer.text_blocks ?? []).map(blockText).filter((part) => part !== '').join('\n\n')).trim();
  if (text === '') return { shown: false };
  const listed = [...(answer.references ?? answer.reference_links ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return { shown: true, text, references: listed.flatMap((ref) => (ref.link ? [{ url: ref.link, title: ref.title ?? ref.source ?? null }] : [])) };
}

export interface CopilotSettings {
  /** Where `/search` lives: https://serpapi.com or https://www.searchapi.io/api/v1. */
  baseUrl: string;
  apiKey: string | undefined;
  /** ENGINE_COPILOT_RPM */
  perMinute: number;
}

/**
 * Copilot asked on its own, through a SerpApi- or SearchApi-compatible search API: GET {base}/search with
 * engine=bing_copilot, q and api_key (both providers take the key as a parameter). Copilot takes no language or
 * location parameter there, so the locale is not sent. A query Copilot gives no answer to is `notShown`.
 */
export class BingCopilotSearchEngine implements AnswerEngine {
  readonly name = 'copilot' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: CopilotSettings,
    tuning: EngineTuning,
  ) {
    this.http = new ProviderHttp('the Copilot search provider', tuning);
  }

  async ask(query: string, _options: AskOptions): Promise<EngineAnswer> {
    const params = new URLSearchParams({ engine: 'bing_copilot', q: query });
    if (this.settings.apiKey !== undefined) params.set('api_key', this.settings.apiKey);
    const { value, latencyMs } = await this.http.getJson({ url: `${this.settings.baseUrl}/search?${params}`, headers: {} }, readAnswer);
    const model = 'bing_copilot';
    if (!value.shown) return { text: '', citations: [], model, latencyMs, notShown: true };
    return { text: value.text, citations: normaliseCitations(value.references), model, latencyMs };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
