import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeTool } from './schedulerServer.js';

export interface PostizPost {
  id: string;
  group: string;
  content: string;
  publishDate: string;
  state: 'DRAFT' | 'QUEUE';
  integration: { id: string; providerIdentifier: string };
  parts: string[];
}

/** Postiz's `/public/v1`: `Authorization: <key>` (KEY, or KEY-anything), 30 calls an hour per key (429 beyond), posts stored with HTML-escaped text. */
export class FakePostiz extends FakeTool {
  static readonly KEY = 'postiz-test-key';
  readonly posts: PostizPost[] = [];
  integrations = [
    { id: 'int-x', name: 'Acme on X', identifier: 'x', picture: '', disabled: false, profile: 'acme' },
    { id: 'int-li', name: 'Acme Inc', identifier: 'linkedin-page', picture: '', disabled: false, profile: 'acme-inc' },
    { id: 'int-ig', name: 'Acme gram', identifier: 'instagram', picture: '', disabled: false, profile: 'acmegram' },
    { id: 'int-off', name: 'Old X', identifier: 'x', picture: '', disabled: true, profile: 'old' },
  ];
  /** Calls this hour per key. */
  readonly calls = new Map<string, number>();

  static async start(): Promise<FakePostiz> {
    const fake = new FakePostiz();
    await fake.listen();
    return fake;
  }

  get baseUrl(): string {
    return `https://127.0.0.1:${this.port}/public/v1`;
  }

  protected handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const key = req.headers.authorization ?? '';
    if (key !== FakePostiz.KEY && !key.startsWith(`${FakePostiz.KEY}-`)) return this.json(res, 401, { msg: 'Invalid API key' });
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    if (this.calls.get(key)! > 30) return this.json(res, 429, { msg: 'Too many requests' }, { 'retry-after': '3600' });
    if (req.method === 'GET' && url.pathname === '/public/v1/integrations') return this.json(res, 200, this.integrations);
    if (req.method === 'GET' && url.pathname === '/public/v1/posts') {
      const from = Date.parse(url.searchParams.get('startDate') ?? '');
      const to = Date.parse(url.searchParams.get('endDate') ?? '');
      if (Number.isNaN(from) || Number.isNaN(to)) return this.json(res, 400, { message: ['startDate must be a valid ISO 8601 date string'] });
      const posts = this.posts.filter((post) => Date.parse(post.publishDate) >= from && Date.parse(post.publishDate) <= to);
      return this.json(res, 200, { posts: posts.map(({ parts: _parts, ...post }) => post) });
    }
    if (req.method === 'POST' && url.pathname === '/public/v1/posts') {
      const request = body as { type: string; date: string; shortLink: boolean; tags: unknown[]; posts: Array<{ integration: { id: string }; value: Array<{ content: string; image: unknown[] }>; settings: { __type: string } }> };
      if (!['draft', 'schedule', 'now'].includes(request.type) || Number.isNaN(Date.parse(request.date)) || typeof request.shortLink !== 'boolean' || !Array.isArray(request.tags)) {
        return this.json(res, 400, { message: ['type, date, shortLink and tags are required'] });
      }
      const answer = [];
      for (const post of request.posts) {
        const integration = this.integrations.find((candidate) => candidate.id === post.integration.id);
        if (integration === undefined || post.settings.__type !== integration.identifier) return this.json(res, 400, { msg: `integration ${post.integration.id} not found` });
        const id = `post-${this.posts.length + 1}`;
        const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        this.posts.push({
          id,
          group: `group-${this.posts.length + 1}`,
          content: escape(post.value[0]!.content),
          publishDate: new Date(request.date).toISOString(),
          state: request.type === 'draft' ? 'DRAFT' : 'QUEUE',
          integration: { id: integration.id, providerIdentifier: integration.identifier },
          parts: post.value.map((value) => value.content),
        });
        answer.push({ postId: id, integration: integration.id });
      }
      return this.dropOrAnswer(res, 200, answer);
    }
    this.json(res, 404, { message: 'Cannot find the route' });
  }
}
