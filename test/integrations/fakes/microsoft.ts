import { FakeProvider, type RecordedRequest, type ScriptedAnswer } from './answerEngineServer.js';

type Flavour = 'serpapi' | 'searchapi';

/**
 * A local Bing Copilot search API as SerpApi (GET /search?engine=bing_copilot: `text_blocks` with `snippet` and
 * `reference_indexes`, `references`) or SearchApi serve it (GET /api/v1/search: `markdown`, `text_blocks` with
 * `text`, `reference_links`). An answer with empty text plays a query Copilot gives no answer to: SerpApi says so in
 * `error` with HTTP 200; SearchApi answers with no text blocks.
 */
export class FakeBingCopilot extends FakeProvider<null> {
  protected readonly basePath: string;

  private constructor(private readonly flavour: Flavour) {
    super();
    this.basePath = flavour === 'serpapi' ? '' : '/api/v1';
  }

  static async start(flavour: Flavour): Promise<FakeBingCopilot> {
    const fake = new FakeBingCopilot(flavour);
    await fake.listen();
    return fake;
  }

  params(request: RecordedRequest<null>): URLSearchParams {
    return new URL(request.path, 'http://fake').searchParams;
  }

  questionOf(request: RecordedRequest<null>): string {
    return this.params(request).get('q') ?? '';
  }

  protected isEndpoint(method: string, path: string): boolean {
    return method === 'GET' && new URL(path, 'http://fake').pathname === `${this.basePath}/search`;
  }

  protected payload(answer: ScriptedAnswer, request: RecordedRequest<null>): unknown {
    const question = this.questionOf(request);
    const metadata = { id: `6745${this.requests.length}`, status: 'Success', created_at: '2026-11-25 07:00:00 UTC', total_time_taken: 6.1 };
    const parameters = { engine: 'bing_copilot', q: question };
    const citations = answer.citations ?? [];
    const [first, ...rest] = answer.text.split('\n');
    if (this.flavour === 'serpapi') {
      if (answer.text === '') return { search_metadata: metadata, search_parameters: parameters, error: "Bing Copilot hasn't returned any results for this query." };
      return {
        search_metadata: metadata,
        search_parameters: parameters,
        header: question,
        text_blocks: [
          { type: 'paragraph', snippet: first, reference_indexes: citations.map((_, i) => i + 1) },
          ...(rest.length > 0 ? [{ type: 'list', list: rest.map((line) => ({ snippet: line, reference_indexes: [1] })) }] : []),
        ],
        references: citations.map((c, i) => ({ index: i + 1, title: c.title ?? 'A page', link: c.url, snippet: 'What the page says.', source: new URL(c.url).hostname })),
      };
    }
    if (answer.text === '') return { search_metadata: metadata, search_parameters: parameters, text_blocks: [], reference_links: [] };
    return {
      search_metadata: metadata,
      search_parameters: parameters,
      markdown: answer.text,
      text_blocks: [{ type: 'paragraph', text: first }],
      reference_links: citations.map((c, i) => ({ index: i + 1, title: c.title ?? 'A page', link: c.url, source: new URL(c.url).hostname })),
    };
  }
}
