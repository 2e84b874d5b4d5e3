import { FakeProvider, type RecordedRequest, type ScriptedAnswer } from './fakeProvider.js';

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
