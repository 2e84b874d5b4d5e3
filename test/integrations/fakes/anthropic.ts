import { FakeProvider, type RecordedRequest, type ScriptedAnswer } from './answerEngineServer.js';

/** A Messages API request (the fields the engine sends). */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system?: string;
  messages: Array<{ role: string; content: unknown }>;
  tools: Array<{ type: string; name: string; max_uses?: number; user_location?: { type: string; country?: string } }>;
}

/**
 * A local Anthropic Messages API (POST /v1/messages) with the web_search_20250305 server tool: a narrating text block,
 * a `server_tool_use` block, a `web_search_tool_result` block with the results (cited and retrieved), then the answer
 * as text blocks whose `citations` are `web_search_result_location` entries.
 */
export class FakeAnthropic extends FakeProvider<MessagesRequest> {
  protected readonly basePath = '/v1';
  private count = 0;

  static async start(): Promise<FakeAnthropic> {
    const fake = new FakeAnthropic();
    await fake.listen();
    return fake;
  }

  questionOf(request: RecordedRequest<MessagesRequest>): string {
    const content = request.body.messages.find((m) => m.role === 'user')?.content;
    return typeof content === 'string' ? content : '';
  }

  protected isEndpoint(method: string, path: string): boolean {
    return method === 'POST' && path === '/v1/messages';
  }

  protected payload(answer: ScriptedAnswer, request: RecordedRequest<MessagesRequest>): unknown {
    const id = ++this.count;
    const question = this.questionOf(request);
    const cited = answer.citations ?? [];
    const results = [...cited, ...(answer.retrieved ?? [])].map((source) => ({
      type: 'web_search_result',
      url: source.url,
      title: source.title ?? new URL(source.url).hostname,
      encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2YSDGtX',
      page_age: 'October 2, 2026',
    }));
    return {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model: `${request.body.model}-20250929`,
      content: [
        { type: 'text', text: `I'll search for ${question}.` },
        { type: 'server_tool_use', id: `srvtoolu_${id}`, name: 'web_search', input: { query: question } },
        { type: 'web_search_tool_result', tool_use_id: `srvtoolu_${id}`, content: results },
        ...answerBlocks(answer.text, cited),
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 2100, output_tokens: 240, server_tool_use: { web_search_requests: 1 } },
    };
  }
}

/** Claude splits its answer into text blocks at each cited claim: here, the first sentence carries the citations. */
export function answerBlocks(text: string, cited: ReadonlyArray<{ url: string; title?: string }>): unknown[] {
  const split = text.indexOf('. ');
  const [head, tail] = split === -1 ? [text, ''] : [text.slice(0, split + 1), text.slice(split + 1)];
  const citations = cited.map((source) => ({
    type: 'web_search_result_location',
    url: source.url,
    title: source.title ?? new URL(source.url).hostname,
    encrypted_index: 'Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm',
    cited_text: head.slice(0, 150),
  }));
  return [{ type: 'text', text: head, ...(citations.length > 0 ? { citations } : {}) }, ...(tail === '' ? [] : [{ type: 'text', text: tail }])];
}
