import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeTool } from './schedulerServer.js';

export interface TypefullyDraft {
  id: number;
  social_set_id: number;
  draft_title: string | null;
  status: 'draft' | 'scheduled';
  publish_at: string | null;
  platforms: Record<string, { enabled: boolean; posts: Array<{ text: string }> }>;
  private_url: string;
}

/** Typefully's API v2 under `/v2`: Bearer key; social sets with their platforms; drafts per social set. */
export class FakeTypefully extends FakeTool {
  static readonly KEY = 'typefully-test-key';
  readonly drafts: TypefullyDraft[] = [];

  static async start(): Promise<FakeTypefully> {
    const fake = new FakeTypefully();
    await fake.listen();
    return fake;
  }

  get baseUrl(): string {
    return `https://127.0.0.1:${this.port}/v2`;
  }

  protected handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    if (req.headers.authorization !== `Bearer ${FakeTypefully.KEY}`) return this.json(res, 401, { detail: 'Invalid API key' });
    if (req.method === 'GET' && url.pathname === '/v2/social-sets') return this.json(res, 200, { results: [{ id: 111, username: 'acme', name: 'Acme' }], count: 1 });
    if (req.method === 'GET' && url.pathname === '/v2/social-sets/111') {
      return this.json(res, 200, { id: 111, username: 'acme', name: 'Acme', platforms: { x: { platform: 'x', username: 'acme' }, linkedin: { platform: 'linkedin', name: 'Acme Inc' } } });
    }
    if (url.pathname === '/v2/social-sets/111/drafts' && req.method === 'GET') return this.json(res, 200, { results: [...this.drafts].reverse(), count: this.drafts.length });
    if (url.pathname === '/v2/social-sets/111/drafts' && req.method === 'POST') {
      const request = body as { platforms: TypefullyDraft['platforms']; draft_title?: string; publish_at?: string };
      const id = 9000 + this.drafts.length + 1;
      const draft: TypefullyDraft = {
        id,
        social_set_id: 111,
        draft_title: request.draft_title ?? null,
        status: request.publish_at === undefined ? 'draft' : 'scheduled',
        publish_at: request.publish_at ?? null,
        platforms: request.platforms,
        private_url: `https://typefully.com/?d=${id}`,
      };
      this.drafts.push(draft);
      return this.dropOrAnswer(res, 201, draft);
    }
    this.json(res, 404, { detail: 'Not found.' });
  }
}
