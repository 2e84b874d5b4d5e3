import { z } from 'zod';
import type { EngineSettings } from '../kit/answerEngine.js';
import { chatCompletionSchema } from '../openai/chatCompletionsWriter.js';
import { type AnswerEngine, type AskOptions, type EngineAnswer, EngineError, normaliseCitations } from '../../visibility/engines/engine.js';
import { countryOf, localeInstruction } from '../../visibility/engines/locale.js';
import { type EngineTuning, ProviderHttp } from '../../visibility/engines/providerHttp.js';

// Sonar answers an OpenAI-compatible chat completion, plus its sources.
const completionSchema = chatCompletionSchema.extend({
  model: z.string().optional(),
  search_results: z.array(z.object({ url: z.string(), title: z.string().nullable().optional() })).nullable().optional(),
  citations: z.array(z.string()).nullable().optional(),
});

function readAnswer(json: unknown): { text: string; citations: Array<{ url: string; title?: string | null }>; model: string | undefined } {
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('Perplexity', 'bad_response', 'Perplexity answered without choices[0].message');
  const completion = parsed.data;
  const choice = completion.choices[0]!;
  if (choice.message.refusal) throw new EngineError('Perplexity', 'refused', `Perplexity refused: ${choice.message.refusal}`);
  if (choice.finish_reason === 'content_filter') throw new EngineError('Perplexity', 'refused', 'Perplexity stopped the answer with its content filter');
  // The reasoning models put their thinking before the answer in <think> tags; only the answer is what a user reads.
  const text = (choice.message.content ?? '').replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  if (text === '') throw new EngineError('Perplexity', 'bad_response', 'Perplexity answered with an empty message');
  // search_results (with titles) replaced the bare citations list; older deployments send only the latter.
  const citations = completion.search_results ?? (completion.citations ?? []).map((url) => ({ url }));
  return { text, citations, model: completion.model };
}

/** Perplexity: Sonar through its OpenAI-compatible chat completions, localised by the brand's country. */
export class PerplexityEngine implements AnswerEngine {
  readonly name = 'perplexity' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: EngineSettings,
    tuning: EngineTuning,
  ) {
    this.http = new ProviderHttp('Perplexity', tuning);
  }

  async ask(query: string, options: AskOptions): Promise<EngineAnswer> {
    const country = countryOf(options.locale);
    const { value, latencyMs } = await this.http.postJson(
      {
        url: `${this.settings.baseUrl}/chat/completions`,
        headers: this.settings.apiKey === undefined ? {} : { authorization: `Bearer ${this.settings.apiKey}` },
        body: {
          model: this.settings.model,
          messages: [
            { role: 'system', content: localeInstruction(options.locale) },
            { role: 'user', content: query },
          ],
          ...(country === undefined ? {} : { web_search_options: { user_location: { country } } }),
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
