import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { closeServer, readBody, startHttpsServer } from '../../support/localServers.js';

export interface GhostTag {
  id: string;
  name: string;
  slug: string;
  visibility: 'public' | 'internal';
}

export interface GhostPost {
  id: string;
  uuid: string;
  title: string;
  slug: string;
  html: string;
  status: 'published' | 'draft';
  url: string;
  tags: GhostTag[];
  custom_excerpt: string | null;
  meta_title: string | null;
  meta_description: string | null;
  canonical_url: string | null;
  codeinjection_head: string | null;
  feature_image: string | null;
  feature_image_alt: string | null;
  published_at: string | null;
  updated_at: string;
}

export interface GhostCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

const ADMIN = '/ghost/api/admin/';
const POST_FIELDS = new Set([
  'title',
  'slug',
  'html',
  'status',
  'tags',
  'custom_excerpt',
  'meta_title',
  'meta_description',
  'canonical_url',
  'codeinjection_head',
  'feature_image',
  'feature_image_alt',
  'published_at',
  'updated_at',
]);

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Ghost's own slugs: lower case, runs of anything else as one dash; an internal tag's `#` becomes `hash-`. */
function slugify(name: string): string {
  const text = name.startsWith('#') ? `hash-${name.slice(1)}` : name;
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function errors(res: ServerResponse, status: number, type: string, message: string, context: string | null = null): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ errors: [{ message, context, type }] }));
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-version': 'v5.0' });
  res.end(JSON.stringify(body));
}

/**
 * A local Ghost (5.x) Admin API, as the published API reference and Ghost's source describe it: an integration's
 * token is verified as Ghost verifies it (`Authorization: Ghost <jwt>`, HS256 over the hex-decoded secret of the key
 * named by `kid`, audience `/admin/`, at most five minutes of life, on the service's clock), posts and tags live in
 * memory (tags given by name are made on the fly, `#` names are internal tags slugged `hash-…`), `?source=html` is
 * required to take HTML, and an edit must carry the post's current `updated_at` (else 409 UpdateCollisionError).
 */
export class FakeGhost {
  readonly calls: GhostCall[] = [];
  readonly posts: GhostPost[] = [];
  readonly tags: GhostTag[] = [];
  readonly keyId = hex(12);
  readonly secret = hex(32);
  version = '5.96.0';
  origin = '';
  /** The next post writes are done, then answered only after this long (a timeout the CMS in fact completed). */
  slowWrites: number[] = [];
  private server: Server | undefined;

  private constructor(private readonly now: () => number) {}

  static async start(now: () => number = () => Date.now()): Promise<FakeGhost> {
    const ghost = new FakeGhost(now);
    const { server, port } = await startHttpsServer((req, res) => void ghost.handle(req, res));
    ghost.server = server;
    ghost.origin = `https://127.0.0.1:${port}`;
    return ghost;
  }

  get adminApiKey(): string {
    return `${this.keyId}:${this.secret}`;
  }

  close(): Promise<void> {
    return this.server === undefined ? Promise.resolve() : closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const raw = (await readBody(req)).toString('utf8');
    this.calls.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers });
    if (!url.pathname.startsWith(ADMIN)) return errors(res, 404, 'NotFoundError', 'Resource not found');
    const route = url.pathname.slice(ADMIN.length);
    // The site endpoint is public: clients read the version before they authenticate.
    if (route === 'site/' && req.method === 'GET') {
      return answer(res, 200, { site: { title: 'Acme Journal', description: 'Notes', logo: null, icon: null, accent_color: null, url: `${this.origin}/`, version: this.version.split('.').slice(0, 2).join('.') } });
    }
    const refused = await this.authenticate(req.headers.authorization);
    if (refused !== null) return errors(res, 401, 'UnauthorizedError', refused);
    if (route === 'posts/' && req.method === 'GET') return this.browse(res, url.searchParams);
    if (route === 'posts/' && req.method === 'POST') return this.write(res, url.searchParams, raw, undefined);
    const one = /^posts\/([0-9a-f]{24})\/$/.exec(route);
    if (one !== null) {
      const post = this.posts.find((candidate) => candidate.id === one[1]);
      if (post === undefined) return errors(res, 404, 'NotFoundError', 'Post not found.');
      if (req.method === 'GET') return answer(res, 200, { posts: [post] });
      if (req.method === 'PUT') return this.write(res, url.searchParams, raw, post);
    }
    return errors(res, 404, 'NotFoundError', 'Resource not found');
  }

  /** Null when the token is good; else Ghost's reason. */
  private async authenticate(header: string | undefined): Promise<string | null> {
    const match = /^Ghost (\S+)$/.exec(header ?? '');
    if (match === null) return 'Authorization header format is "Authorization: Ghost [token]"';
    const token = match[1]!;
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return 'Invalid JWT';
    }
    if (kid !== this.keyId) return 'Unknown Admin API Key';
    try {
      const { payload } = await jwtVerify(token, Buffer.from(this.secret, 'hex'), {
        algorithms: ['HS256'],
        audience: '/admin/',
        maxTokenAge: '5m',
        currentDate: new Date(this.now()),
      });
      if (payload.exp === undefined || payload.iat === undefined || payload.exp - payload.iat > 300) return 'Invalid token: maximum lifetime is 5 minutes';
      return null;
    } catch (error) {
      return `Invalid token: ${(error as Error).message}`;
    }
  }

  private browse(res: ServerResponse, query: URLSearchParams): void {
    const filter = query.get('filter');
    let posts = this.posts;
    if (filter !== null) {
      const tag = /^tag:([a-z0-9-]+)$/.exec(filter);
      if (tag === null) return errors(res, 400, 'BadRequestError', `this fake understands only tag:<slug> filters, got ${filter}`);
      posts = posts.filter((post) => post.tags.some((candidate) => candidate.slug === tag[1]));
    }
    const limit = Number(query.get('limit') ?? '15');
    answer(res, 200, { posts: posts.slice(0, limit), meta: { pagination: { page: 1, limit, pages: 1, total: posts.length, next: null, prev: null } } });
  }

  /** Tags by id, slug or name (a name Ghost has not seen makes a new tag). */
  private tagOf(given: { name?: string; slug?: string }): GhostTag {
    const slug = given.slug ?? slugify(given.name ?? '');
    const found = this.tags.find((tag) => tag.slug === slug || (given.name !== undefined && tag.name.toLowerCase() === given.name.toLowerCase()));
    if (found !== undefined) return found;
    const name = given.name ?? slug;
    const tag: GhostTag = { id: hex(12), name, slug, visibility: name.startsWith('#') ? 'internal' : 'public' };
    this.tags.push(tag);
    return tag;
  }

  private async write(res: ServerResponse, query: URLSearchParams, raw: string, existing: GhostPost | undefined): Promise<void> {
    let body: { posts?: Array<Record<string, unknown>> };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return errors(res, 400, 'BadRequestError', 'Request body is not JSON');
    }
    const given = body.posts?.[0];
    if (given === undefined) return errors(res, 422, 'ValidationError', 'No root key (\'posts\') provided.');
    const unknown = Object.keys(given).filter((key) => !POST_FIELDS.has(key));
    if (unknown.length > 0) return errors(res, 422, 'ValidationError', `this fake does not know the fields ${unknown.join(', ')}`);
    if (given.html !== undefined && query.get('source') !== 'html') return errors(res, 422, 'ValidationError', 'html is only taken with ?source=html');
    if (existing !== undefined && given.updated_at !== existing.updated_at) {
      return errors(res, 409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.');
    }
    if (typeof given.title !== 'string' || given.title === '') return errors(res, 422, 'ValidationError', 'Validation (isEmpty) failed for title', 'title');
    if (typeof given.custom_excerpt === 'string' && given.custom_excerpt.length > 300) return errors(res, 422, 'ValidationError', 'Validation (isLength) failed for custom_excerpt');
    const id = existing?.id ?? hex(12);
    const slug = typeof given.slug === 'string' ? given.slug : slugify(given.title);
    const status = given.status === 'published' ? 'published' : 'draft';
    const uuid = existing?.uuid ?? `${hex(4)}-${hex(2)}-${hex(2)}-${hex(2)}-${hex(6)}`;
    const text = (name: string): string | null => (typeof given[name] === 'string' ? (given[name] as string) : null);
    const post: GhostPost = {
      id,
      uuid,
      title: given.title,
      slug,
      html: text('html') ?? '',
      status,
      // A draft's url is its preview address; only a published post is at its slug.
      url: status === 'published' ? `${this.origin}/${slug}/` : `${this.origin}/p/${uuid}/`,
      tags: Array.isArray(given.tags) ? (given.tags as Array<{ name?: string; slug?: string }>).map((tag) => this.tagOf(tag)) : (existing?.tags ?? []),
      custom_excerpt: text('custom_excerpt'),
      meta_title: text('meta_title'),
      meta_description: text('meta_description'),
      canonical_url: text('canonical_url'),
      codeinjection_head: text('codeinjection_head'),
      feature_image: text('feature_image'),
      feature_image_alt: text('feature_image_alt'),
      published_at: text('published_at'),
      updated_at: new Date(this.now() + this.posts.length).toISOString(),
    };
    if (existing === undefined) this.posts.push(post);
    else this.posts.splice(this.posts.indexOf(existing), 1, post);
    const delay = this.slowWrites.shift();
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed) return;
    answer(res, existing === undefined ? 201 : 200, { posts: [post] });
  }
}
