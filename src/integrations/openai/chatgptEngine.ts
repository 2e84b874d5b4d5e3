import { z } from 'zod';
import type { EngineSettings } from '../kit/answerEngine.js';
import { type AnswerEngine, type AskOptions, type EngineAnswer, EngineError, normaliseCitations } from '../../visibility/engines/engine.js';
import { countryOf, localeInstruction } from '../../visibility/engines/locale.js';
import { type EngineTuning, ProviderHttp } from '../../visibility/engines/providerHttp.js';

const responseSchema = z.object({
  model: z.string().optional(),
  status: z.string().optional(),
  error: z.object({ message: z.string() }).nullable().optional(),
  incomplete_details: z.object({ reason: z.string().optional() }).nullable().optional(),
  output: z.array(
    z.object({
      type: z.string(),
      content: z
        .array(
          z.object({
            type: z.string(),
            text: z.string().optional(),
            refusal: z.string().optional(),
            annotations: z.array(z.object({ type: z.string(), url: z.string().optional(), title: z.string().nullable().optional() })).optional(),
          }),
        )
        .optional(),
    }),
  ),
});

type Response = z.infer<typeof responseSchema>;

/** What OpenAI tags the links it cites with: `utm_source=openai` through the API, `utm_source=chatgpt.com` in ChatGPT. */
const OPENAI_UTM_SOURCES: ReadonlySet<string> = new Set(['openai', 'chatgpt.com']);

function isOpenAiTag(pair: string): boolean {
  const [entry] = new URLSearchParams(pair);
  return entry !== undefined && entry[0] === 'utm_source' && OPENAI_UTM_SOURCES.has(entry[1]);
}

/**
 * The page cited is the same without OpenAI's tag. Only that pair goes: the other parameters stay exactly as written
 * (re-serialising them through URLSearchParams would re-encode them).
 */
function withoutOpenAiTag(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  const pairs = parsed.search.slice(1).split('&');
  const kept = pairs.filter((pair) => !isOpenAiTag(pair));
  if (kept.length === pairs.length) return url;
  parsed.search = kept.filter((pair) => pair !== '').join('&');
  return parsed.href;
}

function readAnswer(json: unknown): { text: string; citations: Array<{ url: string; title: string | null }>; model: string | undefined } {
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('OpenAI', 'bad_response', 'OpenAI answered without an output list');
  const response: Response = parsed.data;
  if (response.status === 'failed') throw new EngineError('OpenAI', 'provider_error', `OpenAI could not answer: ${response.error?.message ?? 'no reason given'}`);
  if (response.incomplete_details?.reason === 'content_filter') throw new EngineError('OpenAI', 'refused', 'OpenAI stopped the answer with its content filter');
  const parts = response.output.filter((item) => item.type === 'message').flatMap((item) => item.content ?? []);
  const refusal = parts.find((part) => part.type === 'refusal');
  if (refusal !== undefined) throw new EngineError('OpenAI', 'refused', `OpenAI refused: ${refusal.refusal ?? 'no reason given'}`);
  const texts = parts.filter((part) => part.type === 'output_text');
  const text = texts.map((part) => part.text ?? '').join('\n\n');
  if (text.trim() === '') throw new EngineError('OpenAI', 'bad_response', 'OpenAI answered without a message');
  // Only the answer's url_citation annotations are citations: the web_search_call's sources are what it read, not what it cited.
  const citations = texts
    .flatMap((part) => part.annotations ?? [])
    .filter((a) => a.type === 'url_citation' && a.url !== undefined)
    .map((a) => ({ url: withoutOpenAiTag(a.url!), title: a.title ?? null }));
  return { text, citations, model: response.model };
}

/** ChatGPT: the OpenAI Responses API with the hosted `web_search` tool, localised by the brand's country. */
export class OpenAiResponsesEngine implements AnswerEngine {
  readonly name = 'chatgpt' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: EngineSettings,
    tuning: EngineTuning,
  ) {
    this.http = new ProviderHttp('OpenAI', tuning);
  }

  async ask(query: string, options: AskOptions): Promise<EngineAnswer> {
    const country = countryOf(options.locale);
    const { value, latencyMs } = await this.http.postJson(
      {
        url: `${this.settings.baseUrl}/responses`,
        headers: this.settings.apiKey === undefined ? {} : { authorization: `Bearer ${this.settings.apiKey}` },
        body: {
          model: this.settings.model,
          instructions: localeInstruction(options.locale),
          input: query,
          tools: [{ type: 'web_search', ...(country === undefined ? {} : { user_location: { type: 'approximate', country } }) }],
          // Checks are measurements, not conversations: nothing to keep on OpenAI's side.
          store: false,
        },
      },
      readAnswer,
    );
    return { text: value.text, citations: normaliseCitations(value.citations), model: value.model ?? this.settings.model, latencyMs };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
