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

/** Ghost's error answer: `{ errors: [{ message, context, type, code }] }`. */
function errors(res: ServerResponse, status: number, type: string, message: string, context: string | null = null, code: string | null = null): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ errors: [{ message, context, type, code }] }));
}

/** Only the `fields` asked for, as Ghost answers (`fields=id,url`). */
function picked(post: GhostPost, fields: string | null): Partial<GhostPost> {
  if (fields === null) return post;
  const wanted = new Set(fields.split(','));
  return Object.fromEntries(Object.entries(post).filter(([key]) => wanted.has(key)));
}

/** jose's reasons in the words of the jsonwebtoken library Ghost uses, which Ghost puts after "Invalid token: ". */
function jwtReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'invalid signature';
  if (code === 'ERR_JWT_EXPIRED') return 'jwt expired';
  return (error as Error).message;
}

/** The file part of a multipart upload: its name and bytes (enough for Ghost's images/upload/). */
function uploadedFile(raw: Buffer, contentType: string | undefined): { name: string; bytes: Buffer; ref: string | null } | null {
  const boundary = /boundary=([^;]+)/.exec(contentType ?? '')?.[1];
  if (boundary === undefined) return null;
  let file: { name: string; bytes: Buffer } | null = null;
  let ref: string | null = null;
  for (const part of raw.toString('latin1').split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const content = Buffer.from(part.slice(split + 4, part.endsWith('\r\n') ? -2 : undefined), 'latin1');
    const name = /name="([^"]+)"/.exec(head)?.[1];
    const filename = /filename="([^"]+)"/.exec(head)?.[1];
    if (name === 'file' && filename !== undefined) file = { name: filename, bytes: content };
    if (name === 'ref') ref = content.toString('utf8');
  }
  return file === null ? null : { ...file, ref };
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-version': 'v5.0' });
  res.end(JSON.stringify(body));
}

/**
 * A local Ghost (5.x) Admin API, as the published API reference and Ghost's source describe it and as the real Ghost
 * 5.130 of test/ghost answers (test/ghost/realGhost.test.ts, test/publishing/ghostReal.test.ts): an integration's
 * token is verified as Ghost verifies it (`Authorization: Ghost <jwt>`, HS256 over the hex-decoded secret of the key
 * named by `kid`, audience `/admin/`, at most five minutes of life, on the service's clock; no header is a 403, an
 * unknown key 401 UNKNOWN_ADMIN_API_KEY, a bad or expired token 401 INVALID_JWT), `/site/` answers without a key,
 * posts and tags live in memory (tags given by name are made on the fly, `#` names are internal tags slugged
 * `hash-…`; a taken slug gets `-2`), `?source=html` is required to take HTML and drops `<script>` as Ghost's
 * converter does, `fields` limits what is answered, `updated_at` is kept to the second and an edit must carry the
 * current one (stale: 409 UPDATE_COLLISION; none: 422), and images/upload/ stores a file under /content/images/.
 * It stays for what a real Ghost cannot be made to do: answer slowly (`slowWrites`), 429 or 5xx.
 */
export class FakeGhost {
  readonly calls: GhostCall[] = [];
  readonly posts: GhostPost[] = [];
  readonly tags: GhostTag[] = [];
  /** Uploaded images by their path under the site (/content/images/…). */
  readonly images = new Map<string, { bytes: Buffer; ref: string | null }>();
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
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    this.calls.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers });
    if (!url.pathname.startsWith(ADMIN)) return errors(res, 404, 'NotFoundError', 'Resource not found');
    const route = url.pathname.slice(ADMIN.length);
    // The site endpoint is public: clients read the version before they authenticate.
    if (route === 'site/' && req.method === 'GET') {
      return answer(res, 200, { site: { title: 'Acme Journal', description: 'Notes', logo: null, icon: null, accent_color: null, url: `${this.origin}/`, version: this.version.split('.').slice(0, 2).join('.') } });
    }
    if (req.headers.authorization === undefined) {
      // Without a header Ghost finds no user or integration at all: a 403, not a 401.
      return errors(res, 403, 'NoPermissionError', 'Authorization failed', 'Unable to determine the authenticated user or integration. Check that cookies are being passed through if using session authentication.');
    }
    const refused = await this.authenticate(req.headers.authorization);
    if (refused !== null) return errors(res, 401, 'UnauthorizedError', refused.message, null, refused.code);
    if (route === 'images/upload/' && req.method === 'POST') return this.upload(res, bytes, req.headers['content-type']);
    if (route === 'posts/' && req.method === 'GET') return this.browse(res, url.searchParams);
    if (route === 'posts/' && req.method === 'POST') return this.write(res, url.searchParams, raw, undefined);
    const one = /^posts\/([0-9a-f]{24})\/$/.exec(route);
    if (one !== null) {
      const post = this.posts.find((candidate) => candidate.id === one[1]);
      if (post === undefined) return errors(res, 404, 'NotFoundError', 'Post not found.');
      if (req.method === 'GET') return answer(res, 200, { posts: [picked(post, url.searchParams.get('fields'))] });
      if (req.method === 'PUT') return this.write(res, url.searchParams, raw, post);
    }
    return errors(res, 404, 'NotFoundError', 'Resource not found');
  }

  /** Null when the token is good; else Ghost's reason and code. */
  private async authenticate(header: string): Promise<{ message: string; code: string } | null> {
    const match = /^Ghost (\S+)$/.exec(header);
    if (match === null) return { message: 'Authorization header format is "Authorization: Ghost [token]"', code: 'INVALID_AUTH_HEADER' };
    const token = match[1]!;
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return { message: 'Invalid token', code: 'INVALID_JWT' };
    }
    if (kid !== this.keyId) return { message: 'Unknown Admin API Key', code: 'UNKNOWN_ADMIN_API_KEY' };
    try {
      const { payload } = await jwtVerify(token, Buffer.from(this.secret, 'hex'), {
        algorithms: ['HS256'],
        audience: '/admin/',
        maxTokenAge: '5m',
        currentDate: new Date(this.now()),
      });
      if (payload.exp === undefined || payload.iat === undefined || payload.exp - payload.iat > 300) return { message: 'Invalid token: maxAge exceeded', code: 'INVALID_JWT' };
      return null;
    } catch (error) {
      return { message: `Invalid token: ${jwtReason(error)}`, code: 'INVALID_JWT' };
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
    answer(res, 200, { posts: posts.slice(0, limit).map((post) => picked(post, query.get('fields'))), meta: { pagination: { page: 1, limit, pages: 1, total: posts.length, next: null, prev: null } } });
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

  /** Ghost's images/upload/: the file kept under /content/images/<year>/<month>/, its name made unique with -1, -2. */
  private upload(res: ServerResponse, raw: Buffer, contentType: string | undefined): void {
    const file = uploadedFile(raw, contentType);
    if (file === null) return errors(res, 422, 'ValidationError', 'Please select an image.');
    const date = new Date(this.now());
    const folder = `/content/images/${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/`;
    const dot = file.name.lastIndexOf('.');
    const [stem, extension] = dot < 0 ? [file.name, ''] : [file.name.slice(0, dot), file.name.slice(dot)];
    let path = `${folder}${stem}${extension}`;
    for (let n = 1; this.images.has(path); n++) path = `${folder}${stem}-${n}${extension}`;
    this.images.set(path, { bytes: file.bytes, ref: file.ref });
    answer(res, 201, { images: [{ url: `${this.origin}${path}`, ref: file.ref }] });
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
    if (existing !== undefined && given.updated_at === undefined) return errors(res, 422, 'ValidationError', 'Validation error, cannot edit post.');
    if (existing !== undefined && given.updated_at !== existing.updated_at) {
      return errors(res, 409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.', null, 'UPDATE_COLLISION');
    }
    if (typeof given.title !== 'string' || given.title === '') return errors(res, 422, 'ValidationError', 'Validation error, cannot save post.', 'Validation failed for posts[0].');
    if (typeof given.custom_excerpt === 'string' && given.custom_excerpt.length > 300) return errors(res, 422, 'ValidationError', 'Validation (isLength) failed for custom_excerpt');
    const id = existing?.id ?? hex(12);
    const wanted = typeof given.slug === 'string' ? given.slug : slugify(given.title);
    const taken = (candidate: string) => this.posts.some((other) => other.id !== id && other.slug === candidate);
    let slug = wanted;
    for (let n = 2; taken(slug); n++) slug = `${wanted}-${n}`;
    const status = given.status === 'published' ? 'published' : 'draft';
    const uuid = existing?.uuid ?? `${hex(4)}-${hex(2)}-${hex(2)}-${hex(2)}-${hex(6)}`;
    const text = (name: string): string | null => (typeof given[name] === 'string' ? (given[name] as string) : null);
    const post: GhostPost = {
      id,
      uuid,
      title: given.title,
      slug,
      // Ghost's HTML-to-editor conversion has no card for a script: it is dropped.
      html: (text('html') ?? '').replace(/<script\b[\s\S]*?<\/script>/gi, ''),
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
      // Ghost keeps updated_at to the second.
      updated_at: new Date(Math.floor(this.now() / 1000) * 1000).toISOString(),
    };
    if (existing === undefined) this.posts.push(post);
    else this.posts.splice(this.posts.indexOf(existing), 1, post);
    const delay = this.slowWrites.shift();
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed) return;
    answer(res, existing === undefined ? 201 : 200, { posts: [post] });
  }
}
