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
  private readonly tokens = new Map<string, Set<string>>();
  private readonly codes = new Map<string, string>();

  static async start(): Promise<FakeWebflow> {
    const fake = new FakeWebflow();
    await fake.listen();
    return fake;
  }

  /** A site, authorized for a new token (or the one given); answers the token. */
  addSite(options: { id?: string; displayName?: string; customDomains?: Array<{ id: string; url: string }>; token?: string; published?: boolean } = {}): { site: FakeWebflowSite; token: string } {
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
    return { site, token };
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
    return error(404, 'route_not_found', `${call.method} ${call.path} is not a route`);
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
    return reply(200, { access_token: token, token_type: 'bearer', scope: 'sites:read sites:write custom_code:read custom_code:write' });
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
