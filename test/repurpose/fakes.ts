// Local scheduling tools speaking their APIs over https: Postiz's public API, Buffer's GraphQL API, Typefully's v2.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { closeServer, readBody, startHttpsServer } from '../support/localServers.js';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

abstract class FakeTool {
  readonly requests: SeenRequest[] = [];
  /** The next create is stored but its answer never arrives: the connection drops, as when a job dies mid-call. */
  loseNextCreateAnswer = false;
  protected server!: Server;
  port = 0;

  protected async listen(): Promise<void> {
    const started = await startHttpsServer((req, res) => {
      void this.receive(req, res);
    });
    this.server = started.server;
    this.port = started.port;
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = (await readBody(req)).toString('utf8');
    const body = text === '' ? null : (JSON.parse(text) as unknown);
    const url = new URL(req.url ?? '/', 'https://localhost');
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body });
    this.handle(req, res, url, body);
  }

  protected dropOrAnswer(res: ServerResponse, status: number, body: unknown): void {
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      res.socket?.destroy();
      return;
    }
    json(res, status, body);
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void;

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

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
    if (key !== FakePostiz.KEY && !key.startsWith(`${FakePostiz.KEY}-`)) return json(res, 401, { msg: 'Invalid API key' });
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    if (this.calls.get(key)! > 30) return json(res, 429, { msg: 'Too many requests' }, { 'retry-after': '3600' });
    if (req.method === 'GET' && url.pathname === '/public/v1/integrations') return json(res, 200, this.integrations);
    if (req.method === 'GET' && url.pathname === '/public/v1/posts') {
      const from = Date.parse(url.searchParams.get('startDate') ?? '');
      const to = Date.parse(url.searchParams.get('endDate') ?? '');
      if (Number.isNaN(from) || Number.isNaN(to)) return json(res, 400, { message: ['startDate must be a valid ISO 8601 date string'] });
      const posts = this.posts.filter((post) => Date.parse(post.publishDate) >= from && Date.parse(post.publishDate) <= to);
      return json(res, 200, { posts: posts.map(({ parts: _parts, ...post }) => post) });
    }
    if (req.method === 'POST' && url.pathname === '/public/v1/posts') {
      const request = body as { type: string; date: string; shortLink: boolean; tags: unknown[]; posts: Array<{ integration: { id: string }; value: Array<{ content: string; image: unknown[] }>; settings: { __type: string } }> };
      if (!['draft', 'schedule', 'now'].includes(request.type) || Number.isNaN(Date.parse(request.date)) || typeof request.shortLink !== 'boolean' || !Array.isArray(request.tags)) {
        return json(res, 400, { message: ['type, date, shortLink and tags are required'] });
      }
      const answer = [];
      for (const post of request.posts) {
        const integration = this.integrations.find((candidate) => candidate.id === post.integration.id);
        if (integration === undefined || post.settings.__type !== integration.identifier) return json(res, 400, { msg: `integration ${post.integration.id} not found` });
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
    json(res, 404, { message: 'Cannot find the route' });
  }
}

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
    if (req.method !== 'POST' || url.pathname !== '/') return json(res, 404, { message: 'not found' });
    if (req.headers.authorization !== `Bearer ${FakeBuffer.KEY}`) return json(res, 200, { data: null, errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }] });
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
      if (Object.keys(data).length === 0) return json(res, 200, { data: null, errors: [{ message: 'Syntax Error: unexpected mutation', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
      return this.dropOrAnswer(res, 200, { data });
    }
    if (query.includes('account { organizations')) return json(res, 200, { data: { account: { organizations: this.organizations } } });
    const organization = new RegExp(`organizationId: (${STRING})`).exec(query)?.[1];
    if (organization !== undefined && !this.organizations.some((org) => org.id === JSON.parse(organization))) {
      return json(res, 200, { data: null, errors: [{ message: 'Organization not found', extensions: { code: 'NOT_FOUND' } }] });
    }
    if (query.includes('channels(input')) return json(res, 200, { data: { channels: this.channels } });
    if (query.includes('posts(first') && query.includes('status: [draft, buffer]')) {
      const edges = this.posts.map((post) => ({ node: { id: post.id, text: post.text, channelId: post.channelId } }));
      return json(res, 200, { data: { posts: { edges } } });
    }
    json(res, 200, { data: null, errors: [{ message: 'Cannot query this field', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  }
}

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
    if (req.headers.authorization !== `Bearer ${FakeTypefully.KEY}`) return json(res, 401, { detail: 'Invalid API key' });
    if (req.method === 'GET' && url.pathname === '/v2/social-sets') return json(res, 200, { results: [{ id: 111, username: 'acme', name: 'Acme' }], count: 1 });
    if (req.method === 'GET' && url.pathname === '/v2/social-sets/111') {
      return json(res, 200, { id: 111, username: 'acme', name: 'Acme', platforms: { x: { platform: 'x', username: 'acme' }, linkedin: { platform: 'linkedin', name: 'Acme Inc' } } });
    }
    if (url.pathname === '/v2/social-sets/111/drafts' && req.method === 'GET') return json(res, 200, { results: [...this.drafts].reverse(), count: this.drafts.length });
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
    json(res, 404, { detail: 'Not found.' });
  }
}
