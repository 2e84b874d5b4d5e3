import type { Request, Response } from 'express';
import {
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type CallToolResult,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  type ReadResourceResult,
  type Resource,
  type ServerOptions,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BadInputError, toServiceError } from '../src/errors.js';
import type { Pipeline } from '../src/pipeline/pipeline.js';
import type { Principal } from '../src/auth/principal.js';
import type { OAuthIssuer } from '../src/oauth/issuer.js';
import { APP_MIME_TYPE, APP_VIEWS, appViewOfTool, type AppView } from '../src/mcp/apps.js';
import { enabledOnConnection, mayUse, planOnly, spendCall, type McpCaller, type McpDeps } from '../src/mcp/caller.js';
import { getPrompt, listPrompts } from '../src/mcp/prompts.js';
import { listResources, listResourceTemplates, readResource } from '../src/mcp/resources.js';
import { createTask, startedJobIds, type Task } from '../src/mcp/tasks.js';
import { answerResult, ERROR_CONTENT_SCHEMA, errorResult } from '../src/mcp/toolResults.js';
import { ALL_SCOPES, type Scope } from '../src/scopes.js';
import { allows } from '../tools/define.js';
import type { RegisteredMcpOperation, Registry } from '../tools/registry.js';
import { ApprovalQuestions, approvalOf, opensUrls } from './mcpApprovals.js';
import { serveThroughFetch } from './mcpFetchBridge.js';
import { ListenStreams } from './mcpListen.js';
import { withProgress } from './mcpProgress.js';
import { declaresTasks, registerTaskMethods, TASKS_CAPABILITY } from './mcpTasks.js';
import { plainToolCall } from './mcpToolCall.js';
import { isPlainObject } from '../src/shared/objects.js';
import { writeJson } from './rest.js';

const SERVER_INSTRUCTIONS =
  'Sightline tracks how AI answer engines and search engines see one website (this workspace) and runs its content. ' +
  'Every tool acts on the workspace the credential is bound to. Tools that change things outside a single record are dry runs ' +
  'unless called again with confirm: true; the dry run says what would happen.';

/**
 * What a connection asks to see: `?toolsets=brand,team`, `?readonly=1` and `?output_schemas=1`, or the same as the
 * headers `X-MCP-Toolsets`, `X-MCP-Readonly` and `X-MCP-Output-Schemas` (for hosts whose server URL is fixed).
 */
export interface ToolFilter {
  toolsets: ReadonlySet<string> | null;
  readOnly: boolean;
  /** Tools carry their outputSchema: about 300 more tokens a tool, so only on request. */
  outputSchemas: boolean;
}

function flag(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'string') throw BadInputError.field(name, 'must be given once');
  if (!['1', '0', 'true', 'false'].includes(value)) throw BadInputError.field(name, 'must be 1, 0, true or false');
  return value === '1' || value === 'true';
}

/** A setting given as a query parameter or as its header; both may be sent only when they agree. */
function setting(req: Request, name: string, header: string): unknown {
  const fromQuery: unknown = req.query[name];
  const fromHeader = req.headers[header];
  if (fromHeader === undefined) return fromQuery;
  if (fromQuery !== undefined && fromQuery !== fromHeader) throw BadInputError.field(name, `given as ?${name} and as the ${header} header with different values`);
  return fromHeader;
}

export function parseToolFilter(req: Request, registry: Registry): ToolFilter {
  const toolsets = setting(req, 'toolsets', 'x-mcp-toolsets');
  if (toolsets !== undefined && typeof toolsets !== 'string') throw BadInputError.field('toolsets', 'must be given once, as a comma list');
  let selected: Set<string> | null = null;
  if (toolsets !== undefined) {
    selected = new Set(toolsets.split(',').map((t) => t.trim()).filter((t) => t !== ''));
    for (const name of selected) {
      if (!registry.toolsets.includes(name)) throw BadInputError.field('toolsets', `unknown toolset "${name}"; known: ${registry.toolsets.join(', ')}`);
    }
  }
  return {
    toolsets: selected,
    readOnly: flag('readonly', setting(req, 'readonly', 'x-mcp-readonly')),
    outputSchemas: flag('output_schemas', setting(req, 'output_schemas', 'x-mcp-output-schemas')),
  };
}

function toTool(operation: RegisteredMcpOperation): Tool {
  const tool: Tool = {
    name: operation.operationId,
    title: operation.annotations.title,
    description: operation.description,
    inputSchema: operation.inputJsonSchema as Tool['inputSchema'],
    annotations: { ...operation.annotations },
  };
  const view = appViewOfTool(operation.operationId);
  // Hosts with MCP Apps render the view beside the result; the older key is what hosts built before 2026 read.
  return view === undefined ? tool : { ...tool, _meta: { ui: { resourceUri: view.uri }, 'ui/resourceUri': view.uri } };
}

const APP_URI_PREFIX = 'ui://';

/** A listen request: with an id (without one it is a notification, which the SDK answers as any other). */
function isListenRequest(body: unknown): boolean {
  return isPlainObject(body) && body.method === 'subscriptions/listen' && body.id !== undefined;
}

/** The caller and its connection's filter, as resources and prompts (src/mcp/) take them. */
function viewerOf(principal: Principal, filter: ToolFilter): McpCaller {
  return { principal, toolsets: filter.toolsets, readOnly: filter.readOnly };
}

function appResource(view: AppView): Resource {
  return { uri: view.uri, name: view.name, title: view.title, description: view.description, mimeType: APP_MIME_TYPE };
}

/**
 * tools/call params with `arguments` left as sent: the SDK's own schema rebuilds the object, which drops a `__proto__`
 * key before the pipeline could refuse it.
 */
const RawArgumentsCallToolParams = z.looseObject({ name: z.string(), arguments: z.unknown().optional() });

const ARGUMENTS_NOT_AN_OBJECT = "arguments: must be an object holding the tool's input";

/**
 * The tool with its outputSchema: what structuredContent holds, the answer or, on a refusal, the error (clients such
 * as the SDK's validate structuredContent even when isError is set). MCP wants an object schema at the root.
 */
function withOutputSchema(tool: Tool, operation: RegisteredMcpOperation): Tool {
  // Its answer may be null (a screen not yet activated), and an outputSchema would oblige every answer to be an object.
  if (operation.screen !== null) return tool;
  const answers = Array.isArray(operation.answerJsonSchema.anyOf) ? operation.answerJsonSchema.anyOf : [operation.answerJsonSchema];
  return { ...tool, outputSchema: { type: 'object', anyOf: [...answers, ERROR_CONTENT_SCHEMA] } as Tool['outputSchema'] };
}

/** A tools/call answered with a task (the Tasks extension's CreateTaskResult). */
type TaskHandle = Task & { resultType: 'task' };

/**
 * How long a client may keep a list or read: a minute. The lists depend on the credential's scopes (so `private`), and
 * a person's role is checked again on every call, so a demotion shows in a cached list within this time at most;
 * toolsets come from the connection's URL or headers, which a client caches under.
 */
const CACHE_HINT = { ttlMs: 60_000, cacheScope: 'private' } as const;
const CACHE_HINTS: ServerOptions['cacheHints'] = {
  'server/discover': CACHE_HINT,
  'tools/list': CACHE_HINT,
  'resources/list': CACHE_HINT,
  'resources/templates/list': CACHE_HINT,
  'resources/read': CACHE_HINT,
  'prompts/list': CACHE_HINT,
};

/** Who is calling on this request and what the connection asked to see: handed to the per-request server through the SDK's authInfo. */
class RequestCaller {
  constructor(
    readonly principal: Principal,
    readonly filter: ToolFilter,
    /** Checks again that the request's credential holds: a listen stream outlives its request. */
    readonly stillValid: () => Promise<boolean>,
  ) {}

  static of(authInfo: AuthInfo | undefined): RequestCaller {
    const caller = authInfo?.extra?.caller;
    // Only handle() reaches the SDK, and it always sets the caller: anything else is a wiring mistake.
    if (!(caller instanceof RequestCaller)) throw new Error('MCP request reached the SDK without an authenticated caller');
    return caller;
  }

  authInfo(): AuthInfo {
    return { token: '', clientId: this.principal.credentialId, scopes: [...this.principal.scopes], extra: { caller: this } };
  }
}

/**
 * MCP over Streamable HTTP, stateless, in both protocol eras from one endpoint: 2026-07-28 requests (the `_meta`
 * envelope) through the SDK's per-request handler, and 2025-era requests (`initialize`, no envelope) through a fresh
 * server and transport per request answering in JSON, as this endpoint always has. Servers are built only after the
 * caller is authenticated, so refused requests cost nothing. Everything that does not depend on the caller (tool
 * descriptors, JSON schemas) is computed once. A plain 2025-era tools/call, the request older agents make most, is
 * answered without the SDK: building a server cost more than the call itself.
 */
export class McpAdapter {
  private readonly tools = new Map<string, Tool>();
  private readonly toolsWithOutput = new Map<string, Tool>();
  private readonly operations = new Map<string, RegisteredMcpOperation>();
  private readonly listCache = new Map<string, Tool[]>();
  private readonly modern: McpHttpHandler;
  private readonly serverInfoMeta: Record<string, unknown>;
  private readonly approvals: ApprovalQuestions;
  private readonly listens: ListenStreams;

  constructor(
    private readonly registry: Registry,
    private readonly pipeline: Pipeline,
    private readonly serverInfo: { name: string; version: string },
    private readonly issuer: OAuthIssuer,
    /**
     * Where the Tasks extension keeps its tasks, and where resources and prompts read what the pipeline does not hand
     * out (the brand memory text, an article's Markdown).
     */
    private readonly store: Pick<McpDeps, 'db' | 'clock'>,
    /** subscriptions/listen streams: how often they look for changes, and where a failed look is reported. */
    listen: { pollMs: number; onError(error: unknown): void },
    /** MCP_DEV_NO_AUTH: who a request without credentials is. */
    private readonly anonymous?: () => Promise<Principal>,
  ) {
    for (const operation of registry.tools) {
      const tool = toTool(operation);
      this.tools.set(operation.operationId, tool);
      this.toolsWithOutput.set(operation.operationId, withOutputSchema(tool, operation));
      this.operations.set(operation.operationId, operation);
    }
    this.serverInfoMeta = { 'io.modelcontextprotocol/serverInfo': serverInfo };
    this.approvals = new ApprovalQuestions(pipeline, issuer);
    this.listens = new ListenStreams({ ...store, pipeline, registry }, { ...listen, serverInfo });
    this.modern = createMcpHandler(({ authInfo }) => this.buildServer(RequestCaller.of(authInfo), 'modern'), { legacy: 'reject' });
  }

  private isVisible(operation: RegisteredMcpOperation, principal: Principal, filter: ToolFilter): boolean {
    return mayUse(viewerOf(principal, filter), operation);
  }

  private isEnabled(operation: RegisteredMcpOperation, filter: ToolFilter): boolean {
    return enabledOnConnection(filter, operation);
  }

  /** The tools a caller may call on this connection; cached per scope set and filter. */
  listTools(principal: Principal, filter: ToolFilter): Tool[] {
    const key = `${[...principal.scopes].sort().join(' ')}|${filter.toolsets === null ? '*' : [...filter.toolsets].sort().join(',')}|${filter.readOnly}|${filter.outputSchemas}`;
    let tools = this.listCache.get(key);
    if (tools === undefined) {
      const described = filter.outputSchemas ? this.toolsWithOutput : this.tools;
      tools = this.registry.tools.filter((op) => this.isVisible(op, principal, filter)).map((op) => described.get(op.operationId)!);
      this.listCache.set(key, tools);
    }
    return tools;
  }

  /** An app view is there for a caller who may call one of the tools it renders, on this connection. */
  private appViews(principal: Principal, filter: ToolFilter): AppView[] {
    return APP_VIEWS.filter((view) => view.toolIds.some((id) => {
      const operation = this.operations.get(id);
      return operation !== undefined && this.isVisible(operation, principal, filter);
    }));
  }

  /**
   * A view outside what the caller may see is not found, exactly as one that does not exist (SEP-2164). A read spends
   * a point of the plan limit, as every other resource read does.
   */
  private async readAppView(principal: Principal, filter: ToolFilter, uri: string): Promise<ReadResourceResult> {
    const view = this.appViews(principal, filter).find((each) => each.uri === uri);
    if (view === undefined) throw new ResourceNotFoundError(uri);
    await spendCall(this.pipeline, principal, planOnly('resources/read'));
    // The view needs nothing from outside (empty CSP lists): it renders the tool result the host hands it.
    return { contents: [{ uri, mimeType: APP_MIME_TYPE, text: view.html, _meta: { ui: { csp: view.csp, prefersBorder: true } } }] };
  }

  /**
   * An unknown tool (also one this connection does not enable, by toolsets or readonly: it is not in its tools/list)
   * and arguments that are not an object are invalid params (JSON-RPC -32602), as the MCP specification has it. With
   * `asTask` (the client declared the Tasks extension on this request), an answer that started background jobs is
   * answered with a task handle instead, stored before it is answered; tasks/get then follows the jobs.
   */
  async callTool(principal: Principal, filter: ToolFilter, name: string, args: unknown, asTask = false): Promise<CallToolResult | TaskHandle> {
    if (args !== undefined && !isPlainObject(args)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, ARGUMENTS_NOT_AN_OBJECT);
    const operation = this.operations.get(name);
    if (operation === undefined || !this.isEnabled(operation, filter)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const result = await this.pipeline.call(operation, principal, args ?? {});
    if (!result.ok) return errorResult(result.error);
    if (asTask && isPlainObject(result.data)) {
      const jobIds = startedJobIds(result.data);
      if (jobIds.length > 0) return { resultType: 'task', ...(await createTask(this.store.db, this.store.clock, principal, { operationId: name, jobIds, answer: result.data })) };
    }
    // A screen not yet activated answers null, which MCP's structured content (an object) cannot hold: text only.
    if (result.data === null) return { content: [{ type: 'text', text: 'null' }] };
    return answerResult(result.data);
  }

  /** The Tasks extension is served in the 2026-07-28 era only: 2025-era clients cannot declare it. */
  private buildServer(caller: RequestCaller, era: 'legacy' | 'modern'): Server {
    const { principal, filter } = caller;
    const server = new Server(this.serverInfo, {
      // Changes are told on subscriptions/listen (mcpListen.ts), which 2025-era stateless serving cannot hold open.
      capabilities:
        era === 'modern'
          ? { tools: { listChanged: false }, resources: { listChanged: true, subscribe: true }, prompts: { listChanged: false }, ...TASKS_CAPABILITY }
          : { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
      instructions: SERVER_INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
    });
    // Every request spends a point of the plan limit (the specification's "every request"), lists included.
    const spend = (method: string) => spendCall(this.pipeline, principal, planOnly(method));
    server.setRequestHandler('tools/list', async () => {
      await spend('tools/list');
      return { tools: this.listTools(principal, filter) };
    });
    server.setRequestHandler('tools/call', { params: RawArgumentsCallToolParams }, async (params, ctx) => {
      if (era === 'legacy') return this.callTool(principal, filter, params.name, params.arguments);
      // A retry after the person was asked to approve carries the state given with the question.
      const state = ctx.mcpReq.requestState<string>();
      if (state !== undefined) return this.approvals.resume(principal, params.name, state, ctx.mcpReq.inputResponses);
      const result = await withProgress(ctx, () => this.callTool(principal, filter, params.name, params.arguments, declaresTasks(ctx)));
      const approval = opensUrls(ctx) ? approvalOf(result) : undefined;
      return approval === undefined ? result : this.approvals.ask(principal, params.name, approval);
    });
    if (era === 'modern') registerTaskMethods(server, { ...this.store, pipeline: this.pipeline }, principal);
    // Resources and prompts follow the connection's toolsets and the credential's scopes as its tools do (src/mcp/).
    const deps = { ...this.store, pipeline: this.pipeline, registry: this.registry };
    const viewer = viewerOf(principal, filter);
    server.setRequestHandler('resources/list', async (request) => {
      await spend('resources/list');
      const cursor = request.params?.cursor;
      const page = await listResources(deps, viewer, cursor);
      // The app views lead the first page; the cursor pages through the workspace's own resources.
      return cursor === undefined ? { ...page, resources: [...this.appViews(principal, filter).map(appResource), ...page.resources] } : page;
    });
    server.setRequestHandler('resources/templates/list', async () => {
      await spend('resources/templates/list');
      return listResourceTemplates(deps, viewer);
    });
    server.setRequestHandler('resources/read', (request) =>
      request.params.uri.startsWith(APP_URI_PREFIX) ? this.readAppView(principal, filter, request.params.uri) : readResource(deps, viewer, request.params.uri),
    );
    server.setRequestHandler('prompts/list', async () => {
      await spend('prompts/list');
      return listPrompts(deps, viewer);
    });
    server.setRequestHandler('prompts/get', (request) => getPrompt(deps, viewer, request.params.name, request.params.arguments));
    return server;
  }

  /** Ends the open listen streams, telling their clients to listen again elsewhere; new ones are refused. */
  endListenStreams(): void {
    this.listens.endAll();
  }

  /**
   * One request after authentication: a listen stream, the 2026-07-28 handler, or for a 2025-era request a server
   * answering in JSON.
   */
  private async route(request: globalThis.Request, options: McpHandlerRequestOptions): Promise<globalThis.Response> {
    if (!(await isLegacyRequest(request, options.parsedBody))) {
      if (!isListenRequest(options.parsedBody)) return this.modern.fetch(request, options);
      const { principal, filter, stillValid } = RequestCaller.of(options.authInfo);
      return this.listens.serve(request, options.parsedBody, { viewer: viewerOf(principal, filter), stillValid });
    }
    const server = this.buildServer(RequestCaller.of(options.authInfo), 'legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, options);
    } finally {
      // In JSON mode the response is complete once handleRequest resolves: nothing is left to stream.
      await server.close();
    }
  }

  /** RFC 6750 / RFC 9728 challenge: where to find the authorization server, and the scopes worth asking for. */
  private challenge(res: Response, status: 401 | 403, message: string, extra: string, scopes: readonly string[] = ALL_SCOPES): void {
    res.setHeader('WWW-Authenticate', `Bearer ${extra}resource_metadata="${this.issuer.resourceMetadataUrl}", scope="${scopes.join(' ')}"`);
    res.status(status).json({ error: message });
  }

  /** A tools/call an OAuth token lacks the scope for is refused at the HTTP level, so the client can ask for more. */
  private missingScope(principal: Principal, filter: ToolFilter, body: unknown): Scope | undefined {
    if (principal.via !== 'oauth' || typeof body !== 'object' || body === null) return undefined;
    const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
    const operation = this.operations.get(params.name);
    if (operation === undefined || operation.scope === 'any' || !this.isEnabled(operation, filter) || allows(operation, principal.scopes)) return undefined;
    return operation.scope;
  }

  /** POST /mcp */
  async handle(req: Request, res: Response): Promise<void> {
    const presented = req.headers.authorization !== undefined;
    let principal: Principal;
    try {
      principal = !presented && this.anonymous !== undefined ? await this.anonymous() : await this.pipeline.authenticate(req.headers.authorization);
    } catch (error) {
      const failure = toServiceError(error);
      this.challenge(res, 401, failure.message, presented ? 'error="invalid_token", ' : '');
      return;
    }
    let filter: ToolFilter;
    try {
      filter = parseToolFilter(req, this.registry);
    } catch (error) {
      const failure = toServiceError(error);
      res.status(failure.status).json(failure.toBody());
      return;
    }
    const scope = this.missingScope(principal, filter, req.body);
    if (scope !== undefined) {
      const scopes = [...principal.scopes, scope];
      // The challenged request's version tells whether its client refreshes into a dead end after a challenge (see recordStepUp).
      const version = req.headers['mcp-protocol-version'];
      if (principal.grantId !== null) await this.issuer.recordStepUp(principal.grantId, scopes, typeof version === 'string' ? version : undefined);
      this.challenge(res, 403, `this token lacks the scope ${scope}`, 'error="insufficient_scope", ', scopes);
      return;
    }
    const call = plainToolCall(req);
    if (call !== undefined) {
      // What the SDK's transport sends for one request in JSON response mode, without a session; in the 2026-07-28
      // form the result also says it is complete and names the server.
      try {
        const result = await this.callTool(principal, filter, call.name, call.arguments);
        const answer = call.era === 'modern' ? { ...result, resultType: 'complete', _meta: this.serverInfoMeta } : result;
        writeJson(res, 200, { result: answer, jsonrpc: '2.0', id: call.id }, 'application/json');
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        writeJson(res, 200, { jsonrpc: '2.0', id: call.id, error: { code: error.code, message: error.message } }, 'application/json');
      }
      return;
    }
    const stillValid = presented ? () => this.pipeline.authenticate(req.headers.authorization).then(() => true, () => false) : async () => true;
    await serveThroughFetch((request, options) => this.route(request, options), req, res, new RequestCaller(principal, filter, stillValid).authInfo());
  }
}
