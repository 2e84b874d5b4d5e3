import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeTool } from './schedulerServer.js';

export interface BufferPost {
  id: string;
  text: string;
  channelId: string;
  status: 'draft' | 'buffer';
  dueAt: string | null;
}

const STRING = '"(?:[^"\\\\]|\\\\.)*"';

/** Buffer's GraphQL endpoint at the root: Bearer key; errors as `errors[]` in 200 answers; the queries the adapter sends. */
export class FakeBuffer extends FakeTool {
  static readonly KEY = 'buffer-test-key';
  readonly posts: BufferPost[] = [];
  organizations = [{ id: 'org-1', name: 'Acme' }];
  channels = [
    { id: 'ch-li', name: 'acme', displayName: 'Acme on LinkedIn', service: 'linkedin', isDisconnected: false, isLocked: false },
    { id: 'ch-x', name: 'acme', displayName: 'Acme on X', service: 'twitter', isDisconnected: false, isLocked: false },
  ];

  static async start(): Promise<FakeBuffer> {
    const fake = new FakeBuffer();
    await fake.listen();
    return fake;
  }

  get baseUrl(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  protected handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    if (req.method !== 'POST' || url.pathname !== '/') return this.json(res, 404, { message: 'not found' });
    if (req.headers.authorization !== `Bearer ${FakeBuffer.KEY}`) return this.json(res, 200, { data: null, errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }] });
    const query = (body as { query: string }).query;
    if (query.startsWith('mutation')) {
      const data: Record<string, unknown> = {};
      const pattern = new RegExp(`(\\w+): createPost\\(input: \\{ text: (${STRING}), channelId: (${STRING}), schedulingType: automatic, (mode: addToQueue, saveToDraft: true|mode: customScheduled, dueAt: (${STRING})) \\}\\)`, 'g');
      for (const match of query.matchAll(pattern)) {
        const channelId = JSON.parse(match[3]!) as string;
        if (!this.channels.some((channel) => channel.id === channelId)) {
          data[match[1]!] = { message: 'Channel not found' };
          continue;
        }
        const post: BufferPost = { id: `bp-${this.posts.length + 1}`, text: JSON.parse(match[2]!) as string, channelId, status: match[5] === undefined ? 'draft' : 'buffer', dueAt: match[5] === undefined ? null : (JSON.parse(match[5]) as string) };
        this.posts.push(post);
        data[match[1]!] = { post: { id: post.id } };
      }
      if (Object.keys(data).length === 0) return this.json(res, 200, { data: null, errors: [{ message: 'Syntax Error: unexpected mutation', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
      return this.dropOrAnswer(res, 200, { data });
    }
    if (query.includes('account { organizations')) return this.json(res, 200, { data: { account: { organizations: this.organizations } } });
    const organization = new RegExp(`organizationId: (${STRING})`).exec(query)?.[1];
    if (organization !== undefined && !this.organizations.some((org) => org.id === JSON.parse(organization))) {
      return this.json(res, 200, { data: null, errors: [{ message: 'Organization not found', extensions: { code: 'NOT_FOUND' } }] });
    }
    if (query.includes('channels(input')) return this.json(res, 200, { data: { channels: this.channels } });
    if (query.includes('posts(first') && query.includes('status: [draft, buffer]')) {
      const edges = this.posts.map((post) => ({ node: { id: post.id, text: post.text, channelId: post.channelId } }));
      return this.json(res, 200, { data: { posts: { edges } } });
    }
    this.json(res, 200, { data: null, errors: [{ message: 'Cannot query this field', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  }
}
