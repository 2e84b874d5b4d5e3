import { z } from 'zod';
import type { EngineSettings } from '../kit/answerEngine.js';
import { domainOf } from '../../shared/urls.js';
import { type AnswerEngine, type AskOptions, type EngineAnswer, EngineError, normaliseCitations } from '../../visibility/engines/engine.js';
import { localeInstruction } from '../../visibility/engines/locale.js';
import { type EngineTuning, ProviderHttp } from '../../visibility/engines/providerHttp.js';

/** Where Google's grounding redirect links live; the real source is behind the redirect. */
const GROUNDING_REDIRECT_HOST = 'vertexaisearch.cloud.google.com';
/** Finish reasons with which Gemini withholds the answer. */
const WITHHELD = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;

const responseSchema = z.object({
  modelVersion: z.string().optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(z.object({ text: z.string().optional(), thought: z.boolean().optional() })).optional() }).optional(),
        finishReason: z.string().optional(),
        groundingMetadata: z
          .object({
            groundingChunks: z.array(z.object({ web: z.object({ uri: z.string(), title: z.string().nullable().optional() }).optional() })).optional(),
            groundingSupports: z.array(z.object({ groundingChunkIndices: z.array(z.number()).optional() })).optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});

interface Source {
  uri: string;
  title: string | null;
}

function readAnswer(json: unknown): { text: string; sources: Source[]; model: string | undefined } {
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('Gemini', 'bad_response', `Gemini's answer does not have the generateContent shape`);
  const response = parsed.data;
  const blocked = response.promptFeedback?.blockReason;
  if (blocked !== undefined) throw new EngineError('Gemini', 'refused', `Gemini blocked the question (${blocked})`);
  const candidate = response.candidates?.[0];
  if (candidate === undefined) throw new EngineError('Gemini', 'bad_response', 'Gemini answered without a candidate');
  if (candidate.finishReason !== undefined && WITHHELD.has(candidate.finishReason)) throw new EngineError('Gemini', 'refused', `Gemini withheld the answer (${candidate.finishReason})`);
  const text = (candidate.content?.parts ?? [])
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? '')
    .join('');
  if (text.trim() === '') throw new EngineError('Gemini', 'bad_response', 'Gemini answered without text');
  // A chunk is cited when a grounding support (a span of the answer) points at it; the others were only retrieved.
  const metadata = candidate.groundingMetadata;
  const cited = new Set((metadata?.groundingSupports ?? []).flatMap((support) => support.groundingChunkIndices ?? []));
  const sources = (metadata?.groundingChunks ?? []).flatMap((chunk, index) => (cited.has(index) && chunk.web !== undefined ? [{ uri: chunk.web.uri, title: chunk.web.title ?? null }] : []));
  return { text, sources, model: response.modelVersion };
}

/**
 * Gemini: generateContent with the `googleSearch` tool. Its grounding links are redirect URIs on Google's host; each is
 * resolved by reading its Location without following it. When that fails, the source is kept as the home page of the
 * domain Gemini gives as the chunk's title (the page is unknown, the domain is right); a source with neither is dropped.
 */
export class GeminiEngine implements AnswerEngine {
  readonly name = 'gemini' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: EngineSettings,
    tuning: EngineTuning,
  ) {
    this.http = new ProviderHttp('Gemini', tuning);
  }

  async ask(query: string, options: AskOptions): Promise<EngineAnswer> {
    const model = this.settings.model.replace(/^models\//, '');
    const { value, latencyMs } = await this.http.postJson(
      {
        url: `${this.settings.baseUrl}/models/${model}:generateContent`,
        headers: this.settings.apiKey === undefined ? {} : { 'x-goog-api-key': this.settings.apiKey },
        body: {
          systemInstruction: { parts: [{ text: localeInstruction(options.locale) }] },
          contents: [{ role: 'user', parts: [{ text: query }] }],
          tools: [{ googleSearch: {} }],
        },
      },
      readAnswer,
    );
    const sources = await Promise.all(value.sources.map((source) => this.resolve(source)));
    return { text: value.text, citations: normaliseCitations(sources.flatMap((s) => s ?? [])), model: value.model ?? model, latencyMs };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async resolve(source: Source): Promise<{ url: string; title: string | null } | undefined> {
    if (!this.isRedirect(source.uri)) return { url: source.uri, title: source.title };
    const target = await this.http.redirectTarget(source.uri);
    if (target !== undefined && domainOf(target) !== undefined) return { url: target, title: source.title };
    if (source.title !== null && HOST_NAME.test(source.title)) return { url: `https://${source.title.toLowerCase()}/`, title: source.title };
    return undefined;
  }

  /** Google's redirect host, or the configured endpoint's own origin (a compatible proxy, or the local test server). */
  private isRedirect(uri: string): boolean {
    if (!URL.canParse(uri)) return false;
    const url = new URL(uri);
    return url.hostname === GROUNDING_REDIRECT_HOST || url.origin === new URL(this.settings.baseUrl).origin;
  }
}
