import { z } from 'zod';
import type { EngineSettings } from '../kit/answerEngine.js';
import { type AnswerEngine, type AskOptions, type EngineAnswer, EngineError, normaliseCitations } from '../../visibility/engines/engine.js';
import { countryOf, localeInstruction } from '../../visibility/engines/locale.js';
import { type EngineTuning, ProviderHttp, TransientEngineError } from '../../visibility/engines/providerHttp.js';

const ANTHROPIC_VERSION = '2023-06-01';
const MAX_SEARCHES = 5;
const MAX_TOKENS = 4096;
/** A turn with long searches comes back paused (`pause_turn`) and is continued; this bounds the continuations. */
const MAX_CONTINUATIONS = 2;

const blockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  citations: z.array(z.looseObject({ type: z.string(), url: z.string().optional(), title: z.string().nullable().optional() })).nullable().optional(),
  // web_search_tool_result: the results, or an error object in their place
  content: z.union([z.array(z.unknown()), z.looseObject({ type: z.string(), error_code: z.string().optional() })]).optional(),
});

const messageSchema = z.object({
  model: z.string().optional(),
  stop_reason: z.string().nullable().optional(),
  content: z.array(blockSchema),
});

type Message = z.infer<typeof messageSchema>;
type Block = z.infer<typeof blockSchema>;

function readMessage(json: unknown): Message {
  const parsed = messageSchema.safeParse(json);
  if (!parsed.success) throw new EngineError('Anthropic', 'bad_response', 'Claude answered without a content list');
  if (parsed.data.stop_reason === 'refusal') throw new EngineError('Anthropic', 'refused', 'Claude declined to answer (stop_reason refusal)');
  return parsed.data;
}

function searchError(block: Block): string | undefined {
  if (block.type !== 'web_search_tool_result' || block.content === undefined || Array.isArray(block.content)) return undefined;
  return block.content.error_code ?? 'unknown';
}

/**
 * The answer is the text after the last search result: the text before it narrates the searching ("I'll search
 * for ..."). When every search failed, the check failed: an answer without its search is not what this engine is
 * measured on, and missing data must not look like invisibility.
 */
function answerOf(content: Block[]): { text: string; citations: Array<{ url: string; title: string | null }> } {
  const results = content.filter((block) => block.type === 'web_search_tool_result');
  const errors = results.map(searchError).filter((code) => code !== undefined);
  if (results.length > 0 && errors.length === results.length) {
    const code = errors[0]!;
    // too_many_requests and unavailable pass; invalid_input, query_too_long and max_uses_exceeded would repeat.
    if (code === 'too_many_requests') throw new TransientEngineError('Anthropic', 'rate_limited', `Claude's web search was rate-limited (${code})`);
    if (code === 'unavailable') throw new TransientEngineError('Anthropic', 'provider_error', `Claude's web search was unavailable (${code})`);
    throw new EngineError('Anthropic', 'provider_error', `Claude's web search failed (${code})`);
  }
  const lastResult = content.findLastIndex((block) => block.type === 'web_search_tool_result' || block.type === 'server_tool_use');
  const answer = content.slice(lastResult + 1).filter((block) => block.type === 'text');
  const text = answer.map((block) => block.text ?? '').join('');
  if (text.trim() === '') throw new EngineError('Anthropic', 'bad_response', 'Claude answered without text');
  const citations = answer
    .flatMap((block) => block.citations ?? [])
    .filter((c) => c.type === 'web_search_result_location' && c.url !== undefined)
    .map((c) => ({ url: c.url!, title: c.title ?? null }));
  return { text: text.trim(), citations };
}

/** Claude: the Anthropic Messages API with the `web_search_20250305` server tool (at most five searches per answer). */
export class ClaudeEngine implements AnswerEngine {
  readonly name = 'claude' as const;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: EngineSettings,
    tuning: EngineTuning,
  ) {
    this.http = new ProviderHttp('Anthropic', tuning);
  }

  async ask(query: string, options: AskOptions): Promise<EngineAnswer> {
    const country = countryOf(options.locale);
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (this.settings.apiKey !== undefined) headers['x-api-key'] = this.settings.apiKey;
    const tool = { type: 'web_search_20250305', name: 'web_search', max_uses: MAX_SEARCHES, ...(country === undefined ? {} : { user_location: { type: 'approximate', country } }) };
    const content: Block[] = [];
    let model: string | undefined;
    let latencyMs = 0;
    for (let round = 0; round <= MAX_CONTINUATIONS; round++) {
      // A paused turn is continued by sending it back, blocks unchanged, as the assistant's message so far.
      const messages = [{ role: 'user', content: query }, ...(content.length === 0 ? [] : [{ role: 'assistant', content }])];
      const turn = await this.http.postJson(
        {
          url: `${this.settings.baseUrl}/messages`,
          headers,
          body: { model: this.settings.model, max_tokens: MAX_TOKENS, system: localeInstruction(options.locale), messages, tools: [tool] },
        },
        // Read inside the request so that a search the provider rate-limited is retried like a 429.
        (json) => {
          const message = readMessage(json);
          return { message, answer: message.stop_reason === 'pause_turn' ? undefined : answerOf([...content, ...message.content]) };
        },
      );
      content.push(...turn.value.message.content);
      model = turn.value.message.model ?? model;
      latencyMs += turn.latencyMs;
      const answer = turn.value.answer;
      if (answer !== undefined) return { text: answer.text, citations: normaliseCitations(answer.citations), model: model ?? this.settings.model, latencyMs };
    }
    throw new EngineError('Anthropic', 'timeout', `Claude's answer was still paused after ${MAX_CONTINUATIONS} continuations`);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
