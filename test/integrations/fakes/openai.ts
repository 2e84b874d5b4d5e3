// OpenAI's two APIs the service calls: Responses with web search (the ChatGPT engine) and chat completions (the writer model).
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from '../../support/localServers.js';
import { FakeProvider, type RecordedRequest, type ScriptedAnswer } from './answerEngineServer.js';

/** A Responses API request as OpenAI documents it (the fields the engine sends). */
export interface ResponsesRequest {
  model: string;
  instructions?: string;
  input: string;
  tools: Array<{ type: string; user_location?: { type: string; country?: string } }>;
  store?: boolean;
}

/**
 * A local OpenAI Responses API (POST /v1/responses) with the hosted web_search tool: the answer is a `message` item whose
 * output_text carries `url_citation` annotations (URLs tagged with `utm_source`, as OpenAI does), after a
 * `web_search_call` item whose sources include the retrieved-but-uncited pages.
 */
export class FakeOpenAi extends FakeProvider<ResponsesRequest> {
  protected readonly basePath = '/v1';
  /** The utm_source OpenAI appends to the links cited: `openai` through the API, `chatgpt.com` in ChatGPT's answers. */
  utmSource = 'openai';
  private count = 0;

  static async start(): Promise<FakeOpenAi> {
    const fake = new FakeOpenAi();
    await fake.listen();
    return fake;
  }

  override reset(): void {
    super.reset();
    this.utmSource = 'openai';
  }

  questionOf(request: RecordedRequest<ResponsesRequest>): string {
    return request.body.input;
  }

  protected isEndpoint(method: string, path: string): boolean {
    return method === 'POST' && path === '/v1/responses';
  }

  protected payload(answer: ScriptedAnswer, request: RecordedRequest<ResponsesRequest>): unknown {
    const id = ++this.count;
    const citations = answer.citations ?? [];
    const sources = [...citations, ...(answer.retrieved ?? [])];
    const text = answer.text;
    // Each annotation marks the span of the answer its source supports; here, the whole answer.
    const annotations = citations.map((citation) => {
      const tagged = new URL(citation.url);
      // Appended after the link's own parameters, which stay as the page wrote them.
      tagged.search = `${tagged.search === '' ? '' : `${tagged.search}&`}utm_source=${this.utmSource}`;
      return { type: 'url_citation', start_index: 0, end_index: text.length, url: tagged.href, title: citation.title ?? tagged.hostname };
    });
    return {
      id: `resp_${id}`,
      object: 'response',
      created_at: 1_795_000_000 + id,
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: request.body.instructions ?? null,
      model: `${request.body.model}-2025-04-14`,
      output: [
        {
          type: 'web_search_call',
          id: `ws_${id}`,
          status: 'completed',
          action: { type: 'search', query: request.body.input, sources: sources.map((s) => ({ type: 'url', url: s.url })) },
        },
        {
          type: 'message',
          id: `msg_${id}`,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations, logprobs: [] }],
        },
      ],
      parallel_tool_calls: true,
      store: request.body.store ?? true,
      tools: request.body.tools,
      usage: { input_tokens: 320, output_tokens: 180, total_tokens: 500, output_tokens_details: { reasoning_tokens: 0 } },
    };
  }
}

type Schema = { [key: string]: unknown };

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Schema } };
  max_tokens?: number;
  temperature?: number;
}

/** What the fake answers to one request: a JSON value for the content, or a raw HTTP answer. */
export type FakeReply =
  | { content: unknown; finishReason?: string }
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { hang: true };

/**
 * A local OpenAI-compatible chat-completions server playing the writer model. It records every request; replies come
 * from a queue the test fills, else from a value built from the requested JSON schema, so any structured call succeeds.
 */
export class FakeWriter {
  readonly requests: ChatRequest[] = [];
  /** Every `/embeddings` request, apart from the chat requests. */
  readonly embeddingRequests: EmbeddingsRequest[] = [];
  private readonly queue: Array<FakeReply | ((request: ChatRequest) => FakeReply)> = [];
  /** Answers for a schema name, used when the queue is empty (e.g. every "article" request). */
  private readonly bySchema = new Map<string, (request: ChatRequest) => unknown>();
  private change: ((completion: unknown) => unknown) | undefined;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeWriter> {
    let fake: FakeWriter | undefined;
    const server = createServer((req, res) => void fake!.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    fake = new FakeWriter(server, `http://127.0.0.1:${port}/v1`);
    return fake;
  }

  /** The next request gets this reply. */
  reply(...replies: Array<FakeReply | ((request: ChatRequest) => FakeReply)>): void {
    this.queue.push(...replies);
  }

  /** Every request for this schema name (once the queue is empty) gets this content. */
  answer(schemaName: string, content: (request: ChatRequest) => unknown): void {
    this.bySchema.set(schemaName, content);
  }

  /** From now on, every chat completion passes through `change` first (a field added or left out, as another server might send). */
  changeAnswers(change: (completion: unknown) => unknown): void {
    this.change = change;
  }

  /** The system and user messages of the last request, joined: what the model was told. */
  lastPrompt(): string {
    return (this.requests.at(-1)?.messages ?? []).map((m) => m.content).join('\n');
  }

  reset(): void {
    this.requests.length = 0;
    this.embeddingRequests.length = 0;
    this.queue.length = 0;
    this.bySchema.clear();
    this.change = undefined;
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      this.embeddings(JSON.parse(body.toString('utf8')) as EmbeddingsRequest, res);
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const request = JSON.parse(body.toString('utf8')) as ChatRequest;
    this.requests.push(request);
    const queued = this.queue.shift();
    const reply: FakeReply = typeof queued === 'function' ? queued(request) : (queued ?? this.fallback(request));
    if ('hang' in reply) return;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
      return;
    }
    const content = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
    const completion = {
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: reply.finishReason ?? 'stop' }],
      usage: { prompt_tokens: 100 + JSON.stringify(request.messages).length, completion_tokens: content.length, total_tokens: 0 },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.change === undefined ? completion : this.change(completion)));
  }

  /** OpenAI's embeddings answer, with the vectors in reverse order (clients must read `index`). */
  private embeddings(request: EmbeddingsRequest, res: ServerResponse): void {
    this.embeddingRequests.push(request);
    const inputs = typeof request.input === 'string' ? [request.input] : request.input;
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: bagOfWords(text) })).reverse();
    const tokens = inputs.reduce((sum, text) => sum + words(text).length, 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
  }

  private fallback(request: ChatRequest): FakeReply {
    const format = request.response_format?.json_schema;
    if (format === undefined) return { content: 'A plain answer.' };
    const byName = this.bySchema.get(format.name);
    return { content: byName ? byName(request) : instanceOf(format.schema, format.schema, format.name) };
  }
}

export interface EmbeddingsRequest {
  model: string;
  input: string | string[];
}

const EMBEDDING_DIMENSIONS = 256;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
}

/**
 * A deterministic embedding: each word of three letters or more counts in one of 256 buckets chosen by its hash, and
 * the vector is normalised. Texts sharing their words come out close (cosine near 1), texts on other words near 0, so
 * a test makes two topics similar or not by the words it writes.
 */
export function bagOfWords(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const word of words(text)) vector[createHash('sha256').update(word).digest().readUInt32BE(0) % EMBEDDING_DIMENSIONS]! += 1;
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}

/** A value that satisfies a JSON schema of the kinds zod produces (objects, arrays, strings, numbers, enums, refs). */
export function instanceOf(schema: Schema, root: Schema, name: string): unknown {
  if (typeof schema.$ref === 'string') {
    const path = schema.$ref.replace(/^#\//, '').split('/');
    let target: unknown = root;
    for (const part of path) target = (target as Schema)[part];
    return instanceOf(target as Schema, root, name);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.anyOf)) return instanceOf(schema.anyOf[0] as Schema, root, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, instanceOf(value, root, key)]));
    }
    case 'array': {
      const count = Math.max(Number(schema.minItems ?? 1), 1);
      const items = (schema.items ?? {}) as Schema;
      return Array.from({ length: Math.min(count, Number(schema.maxItems ?? count)) }, (_, i) => {
        const item = instanceOf(items, root, name);
        return typeof item === 'string' ? `${item} ${i + 1}` : item;
      });
    }
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? schema.exclusiveMinimum ?? 0) + (schema.exclusiveMinimum === undefined ? 0 : 1) || 1;
    case 'boolean':
      return false;
    default: {
      const text = `Sample ${name}`;
      const min = Number(schema.minLength ?? 0);
      const max = Number(schema.maxLength ?? 10_000);
      return text.padEnd(min, '.').slice(0, max);
    }
  }
}
