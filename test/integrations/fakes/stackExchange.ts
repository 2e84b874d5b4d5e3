import { FakeSocialSource, type Received, type Reply } from './socialSourceServer.js';

/** A question the fake holds. */
export interface FakeQuestion {
  questionId: number;
  title: string;
  body: string;
  /** Epoch seconds. */
  createdAt: number;
}

/**
 * Stack Exchange API 2.3 under /2.3: /search/advanced for one site, newer than fromdate, up to pagesize, every answer
 * gzip-compressed in the common wrapper (items, has_more, quota_max, quota_remaining).
 */
export class FakeStackExchange extends FakeSocialSource {
  readonly key = 'se-app-key';
  questions: FakeQuestion[] = [];

  static async start(): Promise<FakeStackExchange> {
    const fake = new FakeStackExchange();
    await fake.listen();
    return fake;
  }

  get settings(): { baseUrl: string; key: string; sites: string[] } {
    return { baseUrl: `${this.base}/2.3`, key: this.key, sites: ['stackoverflow'] };
  }

  /** An error in Stack Exchange's wrapper. */
  static error(status: number, name: string, message: string, headers?: Record<string, string>): Reply {
    return { status, json: { error_id: status, error_name: name, error_message: message }, gzip: true, ...(headers ? { headers } : {}) };
  }

  protected isSearch(request: Received): boolean {
    return request.url.pathname === '/2.3/search/advanced';
  }

  protected answer(request: Received): Reply {
    if (!this.isSearch(request)) return FakeStackExchange.error(404, 'no_method', 'method not recognized');
    const since = Number(request.url.searchParams.get('fromdate') ?? 0);
    const pageSize = Number(request.url.searchParams.get('pagesize') ?? 30);
    const site = request.url.searchParams.get('site') ?? 'stackoverflow';
    const matching = this.questions.filter((question) => question.createdAt >= since);
    const items = matching.slice(0, pageSize).map((question) => ({
      tags: ['seo'],
      owner: { account_id: 1, reputation: 101, user_id: 7, user_type: 'registered', display_name: 'asker' },
      is_answered: false,
      view_count: 20,
      answer_count: 0,
      score: 1,
      last_activity_date: question.createdAt,
      creation_date: question.createdAt,
      question_id: question.questionId,
      content_license: 'CC BY-SA 4.0',
      link: `https://${site}.com/questions/${question.questionId}/question`,
      title: question.title,
      body: `<p>${question.body}</p>`,
    }));
    return { json: { items, has_more: matching.length > pageSize, quota_max: 10_000, quota_remaining: 9_990 }, gzip: true };
  }
}
