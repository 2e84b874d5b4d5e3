import { randomBytes } from 'node:crypto';
import { type BuilderCall, type BuilderReply, FakeBuilderServer, isObject, reply } from './siteBuilderServer.js';

/** Semver 2.0.0, as Webflow requires of a registered script's version. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
/** Webflow allows one successful publish a minute. */
const PUBLISH_INTERVAL_MS = 60_000;

export interface FakeRegisteredScript {
  id: string;
  displayName: string;
  version: string;
  sourceCode: string;
  createdOn: string;
}

export interface FakeAppliedScript {
  id: string;
  location: string;
  version: string;
  attributes?: Record<string, unknown>;
}

export interface FakeWebflowSite {
  id: string;
  displayName: string;
  customDomains: Array<{ id: string; url: string }>;
  lastPublished: number | null;
  lastUpdated: number;
  registered: FakeRegisteredScript[];
  applied: FakeAppliedScript[];
  codeUpdated: number | null;
  /** Successful publishes, with what they were sent to. */
  publishes: Array<{ at: number; customDomains: string[]; publishToWebflowSubdomain: boolean }>;
}

/** What a token made through the dashboard's consent screen carries now: the site builder's scopes and the CMS's. */
export const ALL_SCOPES = ['sites:read', 'sites:write', 'custom_code:read', 'custom_code:write', 'cms:read', 'cms:write'];
/** A token of a connection made before the CMS scopes were asked for. */
export const SITE_BUILDER_SCOPES = ALL_SCOPES.filter((scope) => !scope.startsWith('cms:'));

/** A field of a collection, as Webflow describes it (the Field schema of the Data API v2). */
export interface FakeField {
  id: string;
  slug: string;
  type: string;
  displayName: string;
  isRequired: boolean;
}

/** A collection item: staged fields, and whether (and what) is live. */
export interface FakeItem {
  id: string;
  isDraft: boolean;
  isArchived: boolean;
  fieldData: Record<string, unknown>;
  createdOn: number;
  lastUpdated: number;
  /** The fields as published; null while the item was never published. */
  live: Record<string, unknown> | null;
  lastPublished: number | null;
}

export interface FakeCollection {
  id: string;
  siteId: string;
  displayName: string;
  singularName: string;
  slug: string;
  fields: FakeField[];
  items: FakeItem[];
}

const FIELD_TYPES = new Set(['PlainText', 'RichText', 'Image', 'MultiImage', 'VideoLink', 'Link', 'Email', 'Phone', 'Number', 'DateTime', 'Switch', 'Color', 'Option', 'File', 'Reference', 'MultiReference', 'ExtFileRef']);

const error = (status: number, code: string, message: string, headers?: Record<string, string>) => reply(status, { code, message, externalReference: null, details: [] }, headers);

/** Webflow derives a registered script's id from its display name. */
const scriptId = (displayName: string) => displayName.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * Webflow's Data API v2 as far as the installer uses it, enforcing its documented rules: Bearer tokens (401 otherwise),
 * a token reaches only the sites it was authorized for (404 otherwise), inline scripts of 1 to 2,000 characters with a
 * semver version that is immutable (409 on a second registration), applied scripts that must be registered, one
 * publish a minute (429 with Retry-After), and a site's registered scripts listed all in one answer (the operation
 * defines no query parameter: any a client sends is ignored, and `calls` shows it).
 */
export class FakeWebflow extends FakeBuilderServer {
  readonly clientId = 'wf-client';
  readonly clientSecret = 'wf-secret';
  readonly sites = new Map<string, FakeWebflowSite>();
  readonly collections = new Map<string, FakeCollection>();
  private readonly tokens = new Map<string, Set<string>>();
  private readonly scopes = new Map<string, string[]>();
  /** Calls whose answers come this long after the fake acted on them (matched by method and path suffix). */
  slow: Array<{ method: string; pathEnds: string; ms: number }> = [];
  private readonly codes = new Map<string, string>();

  static async start(): Promise<FakeWebflow> {
    const fake = new FakeWebflow();
    await fake.listen();
    return fake;
  }

  /** A site, authorized for a new token (or the one given); answers the token. */
  addSite(
    options: { id?: string; displayName?: string; customDomains?: Array<{ id: string; url: string }>; token?: string; published?: boolean; scopes?: string[] } = {},
  ): { site: FakeWebflowSite; token: string } {
    const id = options.id ?? randomBytes(12).toString('hex');
    const now = this.now();
    const site: FakeWebflowSite = {
      id,
      displayName: options.displayName ?? 'Acme',
      customDomains: options.customDomains ?? [{ id: `dom${id.slice(0, 8)}`, url: 'acme.example' }],
      lastPublished: options.published === false ? null : now - 3_600_000,
      lastUpdated: now - 3_600_000,
      registered: [],
      applied: [],
      codeUpdated: null,
      publishes: [],
    };
    this.sites.set(id, site);
    const token = options.token ?? `wf_tok_${randomBytes(8).toString('hex')}`;
    this.tokens.set(token, new Set([...(this.tokens.get(token) ?? []), id]));
    if (options.scopes !== undefined || !this.scopes.has(token)) this.scopes.set(token, options.scopes ?? ALL_SCOPES);
    return { site, token };
  }

  /** A CMS collection of the site, with these fields besides every collection's own name and slug. */
  addCollection(siteId: string, options: { slug?: string; displayName?: string; fields: Array<{ slug: string; type: string; displayName?: string; isRequired?: boolean }> }): FakeCollection {
    const id = randomBytes(12).toString('hex');
    const builtIn = [
      { id: randomBytes(12).toString('hex'), slug: 'name', type: 'PlainText', displayName: 'Name', isRequired: true },
      { id: randomBytes(12).toString('hex'), slug: 'slug', type: 'PlainText', displayName: 'Slug', isRequired: true },
    ];
    const fields = options.fields.map((field) => {
      if (!FIELD_TYPES.has(field.type)) throw new Error(`not a Webflow field type: ${field.type}`);
      return { id: randomBytes(12).toString('hex'), slug: field.slug, type: field.type, displayName: field.displayName ?? field.slug, isRequired: field.isRequired ?? false };
    });
    const collection: FakeCollection = { id, siteId, displayName: options.displayName ?? 'Blog Posts', singularName: 'Blog Post', slug: options.slug ?? 'blog', fields: [...builtIn, ...fields], items: [] };
    this.collections.set(id, collection);
    return collection;
  }

  /** A code the consent screen would hand back, worth this token. */
  issueCode(token: string): string {
    const code = `code_${randomBytes(8).toString('hex')}`;
    this.codes.set(code, token);
    return code;
  }

  /** Someone edits the site in the Designer: a staged change the next publish ships. */
  edit(siteId: string): void {
    this.sites.get(siteId)!.lastUpdated = this.now();
  }

  /** Scripts registered by other means (by other apps, or earlier versions), to make the list long. */
  seedScripts(siteId: string, count: number): void {
    const site = this.sites.get(siteId)!;
    for (let i = 0; i < count; i++) {
      site.registered.push({ id: `other${i}`, displayName: `Other ${i}`, version: '1.0.0', sourceCode: 'void 0', createdOn: new Date(this.now()).toISOString() });
    }
  }

  protected answer(call: BuilderCall): BuilderReply {
    if (call.method === 'POST' && call.path === '/oauth/access_token') return this.exchange(call);
    const sites = this.authorized(call);
    if (sites === undefined) return error(401, 'not_authorized', 'Request not authorized');
    if (call.method === 'GET' && call.path === '/v2/sites') return reply(200, { sites: [...sites].map((id) => this.siteJson(this.sites.get(id)!)) });
    if (call.method === 'GET' && call.path === '/v2/token/introspect') return this.introspect(call, sites);
    if (call.path.startsWith('/v2/collections/')) return this.cms(call, sites);
    const match = /^\/v2\/sites\/([^/]+)(\/.*)?$/.exec(call.path);
    const site = match === null ? undefined : this.sites.get(decodeURIComponent(match[1]!));
    if (site === undefined || !sites.has(site.id)) return error(404, 'resource_not_found', 'Requested resource not found: The site cannot be found');
    const rest = match![2] ?? '';
    if (call.method === 'GET' && rest === '') return reply(200, this.siteJson(site));
    if (call.method === 'GET' && rest === '/registered_scripts') return this.listScripts(site);
    if (call.method === 'POST' && rest === '/registered_scripts/inline') return this.register(site, call.body);
    if (call.method === 'GET' && rest === '/custom_code') return reply(200, this.codeJson(site));
    if (call.method === 'PUT' && rest === '/custom_code') return this.apply(site, call.body);
    if (call.method === 'POST' && rest === '/publish') return this.publish(site, call.body);
    if (call.method === 'GET' && rest === '/collections') {
      return this.scoped(call, 'cms:read') ?? reply(200, { collections: [...this.collections.values()].filter((c) => c.siteId === site.id).map((c) => this.collectionJson(c, false)) });
    }
    return error(404, 'route_not_found', `${call.method} ${call.path} is not a route`);
  }

  protected override delayOf(call: BuilderCall): number {
    return this.slow.find((slow) => slow.method === call.method && call.path.endsWith(slow.pathEnds))?.ms ?? 0;
  }

  private token(call: BuilderCall): string | undefined {
    return /^Bearer (.+)$/.exec(String(call.headers.authorization ?? ''))?.[1];
  }

  /** A 403 as Webflow answers a token without the operation's scope; undefined when the token has it. */
  private scoped(call: BuilderCall, scope: string): BuilderReply | undefined {
    const scopes = this.scopes.get(this.token(call) ?? '') ?? [];
    return scopes.includes(scope) ? undefined : error(403, 'missing_scopes', `OAuthForbidden: You are missing the following scopes - ${scope}`);
  }

  /** GET /token/introspect: the authorization's scopes (comma-separated, as the description says) and sites. */
  private introspect(call: BuilderCall, sites: Set<string>): BuilderReply {
    return reply(200, {
      authorization: {
        id: 'auth1',
        createdOn: new Date(this.now()).toISOString(),
        lastUsed: new Date(this.now()).toISOString(),
        grantType: 'authorization_code',
        rateLimit: 60,
        scope: (this.scopes.get(this.token(call) ?? '') ?? []).join(','),
        authorizedTo: { siteIds: [...sites], workspaceIds: ['wfws'], userIds: ['wfuser'] },
      },
      application: { id: 'app1', description: 'Sightline', homepage: 'https://sightline.example', displayName: 'Sightline' },
    });
  }

  /**
   * The collections and their items (Data API v2: Collections, Items), enforcing what a client could get wrong: the
   * CMS scopes, collections of the token's sites only (404 otherwise), fieldData with name and slug, only the
   * collection's field slugs, values of each field's type, slugs unique in the collection (409 as Webflow answers a
   * duplicate), and items that exist (404).
   */
  private cms(call: BuilderCall, sites: Set<string>): BuilderReply {
    const match = /^\/v2\/collections\/([^/]+)(\/items(?:\/([^/]+))?(?:\/(live))?)?$/.exec(call.path);
    const collection = match === null ? undefined : this.collections.get(decodeURIComponent(match[1]!));
    const denied = this.scoped(call, call.method === 'GET' ? 'cms:read' : 'cms:write');
    if (denied !== undefined) return denied;
    if (collection === undefined || !sites.has(collection.siteId)) return error(404, 'resource_not_found', 'Requested resource not found: The collection cannot be found');
    const [, , items, itemId, live] = match!;
    if (items === undefined) return call.method === 'GET' ? reply(200, this.collectionJson(collection, true)) : error(404, 'route_not_found', 'not a route');
    if (itemId === 'publish' && call.method === 'POST') return this.publishItems(collection, call.body);
    if (itemId === 'live' || (itemId === undefined && live === undefined)) {
      const isLive = itemId === 'live';
      if (call.method === 'GET' && !isLive) {
        const slug = call.query.get('slug');
        const found = collection.items.filter((item) => slug === null || item.fieldData.slug === slug);
        return reply(200, { items: found.map((item) => this.itemJson(item)), pagination: { limit: 100, offset: 0, total: found.length } });
      }
      if (call.method === 'POST') return this.createItem(collection, call.body, isLive);
      return error(404, 'route_not_found', `${call.method} ${call.path} is not a route`);
    }
    const item = collection.items.find((candidate) => candidate.id === itemId);
    if (item === undefined) return error(404, 'resource_not_found', 'Requested resource not found: The item cannot be found');
    if (call.method === 'GET') return reply(200, this.itemJson(item));
    if (call.method === 'PATCH') return this.updateItem(collection, item, call.body, live === 'live');
    return error(404, 'route_not_found', `${call.method} ${call.path} is not a route`);
  }

  private collectionJson(collection: FakeCollection, withFields: boolean) {
    const iso = new Date(this.now()).toISOString();
    const { id, displayName, singularName, slug } = collection;
    return { id, displayName, singularName, slug, createdOn: iso, lastUpdated: iso, ...(withFields ? { fields: collection.fields } : {}) };
  }

  private itemJson(item: FakeItem) {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      id: item.id,
      cmsLocaleId: 'loc1',
      lastPublished: iso(item.lastPublished),
      lastUpdated: iso(item.lastUpdated),
      createdOn: iso(item.createdOn),
      isArchived: item.isArchived,
      isDraft: item.isDraft,
      fieldData: item.fieldData,
    };
  }

  /** fieldData checked against the collection's fields; a message when Webflow would refuse it. */
  private invalidFields(collection: FakeCollection, fieldData: Record<string, unknown>, except?: FakeItem): string | undefined {
    if (typeof fieldData.name !== 'string' || fieldData.name === '') return 'fieldData.name: is required';
    if (typeof fieldData.slug !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(fieldData.slug)) return 'fieldData.slug: must be a slug';
    for (const [slug, value] of Object.entries(fieldData)) {
      const field = collection.fields.find((candidate) => candidate.slug === slug);
      if (field === undefined) return `fieldData.${slug}: is not a field of the collection`;
      const fits = field.type === 'Image' ? isObject(value) && typeof value.url === 'string' : field.type === 'PlainText' || field.type === 'RichText' ? typeof value === 'string' : true;
      if (!fits) return `fieldData.${slug}: is not a valid ${field.type}`;
    }
    if (collection.items.some((item) => item !== except && item.fieldData.slug === fieldData.slug)) return 'duplicate';
    return undefined;
  }

  private createItem(collection: FakeCollection, body: unknown, live: boolean): BuilderReply {
    if (!isObject(body) || !isObject(body.fieldData)) return error(400, 'validation_error', 'Validation Error: fieldData is required');
    const invalid = this.invalidFields(collection, body.fieldData);
    if (invalid === 'duplicate') return error(409, 'duplicate_value', `Unique value is already in database: slug ${String(body.fieldData.slug)}`);
    if (invalid !== undefined) return error(400, 'validation_error', `Validation Error: ${invalid}`);
    const now = this.now();
    // Images are fetched and hosted by Webflow: the item keeps Webflow's copy with a fileId.
    const fieldData = this.hosted(collection, body.fieldData);
    const item: FakeItem = { id: randomBytes(12).toString('hex'), isDraft: live ? false : body.isDraft === true, isArchived: false, fieldData, createdOn: now, lastUpdated: now, live: live ? fieldData : null, lastPublished: live ? now : null };
    collection.items.push(item);
    return reply(202, this.itemJson(item));
  }

  private updateItem(collection: FakeCollection, item: FakeItem, body: unknown, live: boolean): BuilderReply {
    if (!isObject(body) || !isObject(body.fieldData)) return error(400, 'validation_error', 'Validation Error: fieldData is required');
    const merged = { ...item.fieldData, ...body.fieldData };
    const invalid = this.invalidFields(collection, merged, item);
    if (invalid === 'duplicate') return error(409, 'duplicate_value', `Unique value is already in database: slug ${String(merged.slug)}`);
    if (invalid !== undefined) return error(400, 'validation_error', `Validation Error: ${invalid}`);
    item.fieldData = this.hosted(collection, merged);
    if (typeof body.isDraft === 'boolean') item.isDraft = body.isDraft;
    item.lastUpdated = this.now();
    if (live) {
      item.live = item.fieldData;
      item.lastPublished = this.now();
    }
    return reply(200, this.itemJson(item));
  }

  private publishItems(collection: FakeCollection, body: unknown): BuilderReply {
    if (!isObject(body) || !Array.isArray(body.itemIds)) return error(400, 'validation_error', 'Validation Error: itemIds is required');
    const published: string[] = [];
    const errors: string[] = [];
    for (const id of body.itemIds as unknown[]) {
      const item = collection.items.find((candidate) => candidate.id === id);
      if (item === undefined || item.isDraft) {
        errors.push(`${String(id)}: ${item === undefined ? 'not found' : 'is a draft'}`);
        continue;
      }
      item.live = item.fieldData;
      item.lastPublished = this.now();
      published.push(item.id);
    }
    return reply(202, { publishedItemIds: published, errors });
  }

  private hosted(collection: FakeCollection, fieldData: Record<string, unknown>): Record<string, unknown> {
    const images = new Set(collection.fields.filter((field) => field.type === 'Image').map((field) => field.slug));
    return Object.fromEntries(
      Object.entries(fieldData).map(([slug, value]) => [slug, images.has(slug) && isObject(value) && typeof value.fileId !== 'string' ? { fileId: `file${randomBytes(4).toString('hex')}`, url: value.url, alt: value.alt ?? null } : value]),
    );
  }

  private authorized(call: BuilderCall): Set<string> | undefined {
    const token = /^Bearer (.+)$/.exec(String(call.headers.authorization ?? ''))?.[1];
    return token === undefined ? undefined : this.tokens.get(token);
  }

  private exchange(call: BuilderCall): BuilderReply {
    const body = isObject(call.body) ? call.body : {};
    if (body.client_id !== this.clientId || body.client_secret !== this.clientSecret) return reply(401, { error: 'invalid_client', error_description: 'Invalid client credentials' });
    const token = typeof body.code === 'string' ? this.codes.get(body.code) : undefined;
    if (token === undefined || body.grant_type !== 'authorization_code') return reply(400, { error: 'invalid_grant', error_description: 'Invalid authorization code' });
    this.codes.delete(body.code as string);
    return reply(200, { access_token: token, token_type: 'bearer', scope: (this.scopes.get(token) ?? []).join(' ') });
  }

  private siteJson(site: FakeWebflowSite) {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      id: site.id,
      workspaceId: 'wfws',
      displayName: site.displayName,
      shortName: site.displayName.toLowerCase(),
      lastPublished: iso(site.lastPublished),
      lastUpdated: iso(site.lastUpdated),
      customDomains: site.customDomains.map((domain) => ({ ...domain, lastPublished: iso(site.lastPublished) })),
    };
  }

  private codeJson(site: FakeWebflowSite) {
    return { scripts: site.applied, lastUpdated: site.codeUpdated === null ? null : new Date(site.codeUpdated).toISOString(), createdOn: null };
  }

  private listScripts(site: FakeWebflowSite): BuilderReply {
    const scripts = site.registered.map(({ sourceCode: _source, ...script }) => ({ ...script, hostedLocation: `https://cdn.example/${script.id}-${script.version}.js`, integrityHash: null, canCopy: false }));
    return reply(200, { registeredScripts: scripts, pagination: { limit: scripts.length, offset: 0, total: scripts.length } });
  }

  private register(site: FakeWebflowSite, body: unknown): BuilderReply {
    if (!isObject(body)) return error(400, 'bad_request', 'Bad Request: Request is malformed');
    const { sourceCode, version, displayName } = body;
    if (typeof sourceCode !== 'string' || sourceCode.length < 1 || sourceCode.length > 2000) return error(400, 'validation_error', 'sourceCode: must be between 1 and 2000 characters');
    if (typeof version !== 'string' || !SEMVER.test(version)) return error(400, 'validation_error', 'version: must be a Semantic Version string');
    if (typeof displayName !== 'string' || displayName.trim() === '') return error(400, 'validation_error', 'displayName: is required');
    const id = scriptId(displayName);
    if (site.registered.some((script) => script.id === id && script.version === version)) {
      return error(409, 'duplicate_registered_script', `A script ${id} with version ${version} is already registered: versions are immutable`);
    }
    const script = { id, displayName, version, sourceCode, createdOn: new Date(this.now()).toISOString() };
    site.registered.push(script);
    return reply(201, { id, displayName, version, hostedLocation: `https://cdn.example/${id}-${version}.js`, integrityHash: null, canCopy: false, createdOn: script.createdOn });
  }

  private apply(site: FakeWebflowSite, body: unknown): BuilderReply {
    if (!isObject(body) || !Array.isArray(body.scripts)) return error(400, 'bad_request', 'Bad Request: scripts is required');
    const scripts: FakeAppliedScript[] = [];
    for (const entry of body.scripts as unknown[]) {
      if (!isObject(entry) || typeof entry.id !== 'string' || typeof entry.version !== 'string' || !['header', 'footer'].includes(String(entry.location))) {
        return error(400, 'validation_error', 'scripts: each needs id, version and location header or footer');
      }
      if (!site.registered.some((script) => script.id === entry.id && script.version === entry.version)) {
        return error(400, 'validation_error', `scripts: ${entry.id}@${entry.version} is not registered on the site`);
      }
      scripts.push({ id: entry.id, location: String(entry.location), version: entry.version, ...(isObject(entry.attributes) ? { attributes: entry.attributes } : {}) });
    }
    site.applied = scripts;
    site.codeUpdated = this.now();
    site.lastUpdated = this.now();
    return reply(200, this.codeJson(site));
  }

  private publish(site: FakeWebflowSite, body: unknown): BuilderReply {
    if (!isObject(body) || !Array.isArray(body.customDomains)) return error(400, 'bad_request', 'Bad Request: customDomains is required');
    const domains = body.customDomains as unknown[];
    if (domains.some((id) => !site.customDomains.some((domain) => domain.id === id))) return error(400, 'validation_error', 'customDomains: unknown domain id');
    if (domains.length === 0 && body.publishToWebflowSubdomain !== true) return error(400, 'validation_error', 'Nothing to publish to');
    const last = site.publishes.at(-1);
    if (last !== undefined && this.now() - last.at < PUBLISH_INTERVAL_MS) {
      const seconds = Math.ceil((PUBLISH_INTERVAL_MS - (this.now() - last.at)) / 1000);
      return error(429, 'too_many_requests', 'Too many requests: a site can be published once a minute', { 'retry-after': String(seconds) });
    }
    site.publishes.push({ at: this.now(), customDomains: domains as string[], publishToWebflowSubdomain: body.publishToWebflowSubdomain === true });
    site.lastPublished = this.now();
    return reply(202, { customDomains: site.customDomains.filter((domain) => domains.includes(domain.id)), publishToWebflowSubdomain: body.publishToWebflowSubdomain === true });
  }
}
