import { FakeProvider, type RecordedRequest, type ScriptedAnswer } from './answerEngineServer.js';

/** A Sonar chat-completions request (the fields the engine sends). */
export interface SonarRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  web_search_options?: { user_location?: { country?: string } };
}

/**
 * A local Perplexity Sonar API (POST /chat/completions, OpenAI-compatible): the answer text with [n] markers, and the
 * sources as `search_results` (title, url, date) plus the older `citations` list of bare URLs.
 */
export class FakePerplexity extends FakeProvider<SonarRequest> {
  protected readonly basePath = '';
  private count = 0;

  static async start(): Promise<FakePerplexity> {
    const fake = new FakePerplexity();
    await fake.listen();
    return fake;
  }

  questionOf(request: RecordedRequest<SonarRequest>): string {
    return request.body.messages.findLast((m) => m.role === 'user')?.content ?? '';
  }

  protected isEndpoint(method: string, path: string): boolean {
    return method === 'POST' && path === '/chat/completions';
  }

  protected payload(answer: ScriptedAnswer, request: RecordedRequest<SonarRequest>): unknown {
    const id = ++this.count;
    const citations = answer.citations ?? [];
    const markers = citations.map((_, i) => `[${i + 1}]`).join('');
    return {
      id: `pplx-${id}`,
      model: request.body.model,
      created: 1_795_000_000 + id,
      object: 'chat.completion',
      usage: { prompt_tokens: 12, completion_tokens: 150, total_tokens: 162, search_context_size: 'low' },
      citations: citations.map((c) => c.url),
      search_results: citations.map((c) => ({ title: c.title ?? new URL(c.url).hostname, url: c.url, date: '2026-10-02', last_updated: '2026-11-01' })),
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `${answer.text}${markers}` }, delta: { role: 'assistant', content: '' } }],
    };
  }
}
