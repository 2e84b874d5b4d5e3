import { z } from 'zod';
import { ProviderClient } from '../kit/client.js';
import { ProviderError, type ProviderErrorFacts, type ProviderErrorKind } from '../kit/providerError.js';
import { providerMessage } from '../kit/providerMessage.js';
import type { StructuredPrompt, UsageMeter, WriterModel, WriterUsage } from '../../writer/model.js';

/**
 * The provider failed in a way another request will not fix (`refused` by default), or kept failing (the kind of its
 * last failure: a job tries again later when that is transient).
 */
export class WriterError extends ProviderError {
  constructor(message: string, kind: ProviderErrorKind = 'refused', facts: ProviderErrorFacts = {}) {
    super('the writer model', kind, message, facts);
  }
}

export interface WriterSettings {
  /** Base URL ending before `/chat/completions`, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** WRITER_EMBEDDING_MODEL: the model `POST {baseUrl}/embeddings` is asked with; undefined: nothing is embedded (the link network proposes nothing). */
  embeddingModel?: string | undefined;
}

export interface WriterTuning {
  /** One request, connect to last byte; long articles take minutes on slow local models. */
  timeoutMs: number;
  /** Requests after the first on 429, 5xx, timeouts and broken connections. */
  retries: number;
  /** First backoff; doubled each time, with jitter, unless the server sends Retry-After. */
  backoffMs: number;
}

const DEFAULT_TUNING: WriterTuning = { timeoutMs: 180_000, retries: 3, backoffMs: 1000 };
const MAX_RETRY_AFTER_MS = 60_000;

/** The part of an OpenAI-compatible chat completion every caller reads; providers extend it with their own fields. */
export const chatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).optional(),
});

type Completion = z.infer<typeof chatCompletionSchema>;

/** OpenAI's embeddings answer: one vector per input, in `index` order, and the tokens read. */
export const embeddingsSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()).min(1) })),
  usage: z.object({ prompt_tokens: z.number().optional() }).optional(),
});

/**
 * OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp server). Structure is asked for with
 * `response_format: json_schema` (strict) and checked with the same zod schema, because not every server enforces it.
 */
export class OpenAiCompatibleWriter implements WriterModel {
  readonly model: string;
  private readonly tuning: WriterTuning;
  private readonly client: ProviderClient;

  constructor(
    private readonly settings: WriterSettings,
    tuning: Partial<WriterTuning> = {},
  ) {
    this.model = settings.model;
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
    this.client = new ProviderClient({
      label: 'the writer model',
      reach: { kind: 'operator' },
      timeoutMs: this.tuning.timeoutMs,
      retry: { retries: this.tuning.retries, backoffMs: this.tuning.backoffMs, jitter: 0.2, retryStatus: (status) => status === 429 || status >= 500, honourHints: true },
      maxWaitMs: MAX_RETRY_AFTER_MS,
    });
  }

  async structured<T>(prompt: StructuredPrompt<T>, meter?: UsageMeter): Promise<T> {
    const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(prompt.schema, { io: 'output', target: 'draft-7' }) as Record<string, unknown>;
    const messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ];
    let lastProblem = '';
    // An answer that does not validate is asked for once more, with the reason, then the call fails with it.
    for (let round = 0; round < 2; round++) {
      const completion = await this.complete({
        model: this.model,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: prompt.schemaName, strict: true, schema: jsonSchema } },
        ...(prompt.maxTokens === undefined ? {} : { max_tokens: prompt.maxTokens }),
        ...(prompt.temperature === undefined ? {} : { temperature: prompt.temperature }),
      });
      meter?.add(usageOf(completion));
      const choice = completion.choices[0]!;
      if (choice.message.refusal) throw new WriterError(`the writer model refused: ${choice.message.refusal}`);
      const content = choice.message.content ?? '';
      const parsed = parseAnswer(content, prompt.schema);
      if (parsed.ok) return parsed.value;
      lastProblem = choice.finish_reason === 'length' ? `the answer was cut off at the token limit (${parsed.problem})` : parsed.problem;
      messages.push({ role: 'assistant', content }, { role: 'user', content: `That answer is not valid: ${lastProblem}. Answer again with JSON that matches the schema exactly.` });
    }
    throw new WriterError(`the writer model's answer did not match the ${prompt.schemaName} schema twice: ${lastProblem}`, 'bad_answer');
  }

  get embeddingModel(): string | undefined {
    return this.settings.embeddingModel;
  }

  /** One vector per text, in order, from `POST {baseUrl}/embeddings`. */
  async embed(texts: readonly string[], meter?: UsageMeter): Promise<number[][]> {
    const model = this.settings.embeddingModel;
    if (model === undefined) throw new WriterError('no embedding model is configured: the operator sets WRITER_EMBEDDING_MODEL');
    if (texts.length === 0) return [];
    const answer = await this.post('/embeddings', { model, input: texts }, embeddingsSchema, 'data[].embedding');
    meter?.add({ promptTokens: answer.usage?.prompt_tokens ?? 0, completionTokens: 0 });
    const vectors = new Array<number[] | undefined>(texts.length);
    for (const item of answer.data) vectors[item.index] = item.embedding;
    if (vectors.some((vector) => vector === undefined)) throw new WriterError(`the embeddings answer has ${answer.data.length} vectors for ${texts.length} texts`, 'bad_answer');
    return vectors as number[][];
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private complete(body: Record<string, unknown>): Promise<Completion> {
    return this.post('/chat/completions', body, chatCompletionSchema, 'choices[0].message');
  }

  private async post<T>(path: string, body: Record<string, unknown>, schema: z.ZodType<T>, expected: string): Promise<T> {
    const url = `${this.settings.baseUrl}${path}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.settings.apiKey !== undefined) headers.authorization = `Bearer ${this.settings.apiKey}`;
    try {
      const { value } = await this.client.exchange({ method: 'POST', url, headers, body: JSON.stringify(body) }, (answer) => {
        if (answer.status !== 200) {
          const kind = answer.status === 401 || answer.status === 403 ? 'auth' : 'refused';
          throw new WriterError(`the writer model refused the request: ${url} answered ${answer.status}: ${providerMessage(answer.text)}`, kind, { status: answer.status });
        }
        let json: unknown;
        try {
          json = JSON.parse(answer.text);
        } catch {
          throw new WriterError(`the writer model at ${url} answered 200 with a body that is not JSON`, 'bad_answer', { status: 200 });
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) throw new WriterError(`the writer model at ${url} answered 200 without ${expected}`, 'bad_answer', { status: 200 });
        return parsed.data;
      });
      return value;
    } catch (error) {
      if (error instanceof WriterError || !(error instanceof ProviderError)) throw error;
      const problem =
        error.status !== null
          ? `${url} answered ${error.status}: ${error.detail}`
          : error.timedOut
            ? `${url} did not answer within ${this.tuning.timeoutMs / 1000} seconds`
            : `${url}: ${error.detail ?? error.message}`;
      throw new WriterError(`the writer model kept failing after ${this.tuning.retries + 1} attempts: ${problem}`, error.kind, {
        status: error.status,
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
        timedOut: error.timedOut,
        cause: error,
      });
    }
  }
}

function usageOf(completion: Completion): WriterUsage {
  return { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 };
}

function parseAnswer<T>(content: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; problem: string } {
  let json: unknown;
  try {
    // Some servers wrap JSON in a Markdown fence even when asked for a schema.
    json = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { ok: false, problem: 'it is not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `${issue.path.join('.') || '(root)'}: ${issue.message}` };
}
