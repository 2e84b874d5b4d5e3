import { hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  classifyInboundRequest,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  UnsupportedProtocolVersionError,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ChangeWatch, type Change, type Watched } from '../src/mcp/changes.js';
import type { McpCaller, McpDeps } from '../src/mcp/caller.js';
import { isPlainObject } from '../src/shared/objects.js';
import { MODERN_PROTOCOL_VERSION } from './mcpToolCall.js';

// subscriptions/listen (2026-07-28) served here rather than by the SDK's listen router, which delivers one process's
// in-memory events to every stream alike and acknowledges only the four core notification kinds. Here each stream
// watches what its own caller may read (src/mcp/changes.ts reads it from the database, so changes made through any
// instance are heard), and the Tasks extension's `taskIds` are honoured with `notifications/tasks`.

/** At most this many URIs, and as many task ids, per stream: each is read again on every look. */
export const MAX_WATCHED_PER_KIND = 20;

/** Streams open at once on one instance; more are refused as the SDK refuses them (-32603, before the acknowledgement). */
const MAX_OPEN_STREAMS = 256;

/** An SSE comment now and then keeps proxies from closing a quiet stream (the SDK's default interval). */
const KEEP_ALIVE_MS = 15_000;

/** The header/body mismatch code of SEP-2243 (the SDK's HEADER_MISMATCH_ERROR_CODE, not exported). */
const HEADER_MISMATCH = -32020;

const ListenParams = z.object({
  notifications: z.object({
    toolsListChanged: z.boolean().optional(),
    promptsListChanged: z.boolean().optional(),
    resourcesListChanged: z.boolean().optional(),
    resourceSubscriptions: z.array(z.string().max(2048)).max(MAX_WATCHED_PER_KIND).optional(),
    taskIds: z.array(z.string().max(200)).max(MAX_WATCHED_PER_KIND).optional(),
  }),
});

export interface ListenCaller {
  viewer: McpCaller;
  /** Whether the credential the stream was opened with still holds: a revoked or expired one ends the stream. */
  stillValid(): Promise<boolean>;
}

export interface ListenOptions {
  /** How often each stream looks for changes. */
  pollMs: number;
  serverInfo: { name: string; version: string };
  onError(error: unknown): void;
}

/** The open listen streams of this instance: each ends with the listen result when the instance stops. */
export class ListenStreams {
  private readonly open = new Set<() => void>();
  private stopping = false;

  constructor(
    private readonly deps: McpDeps,
    private readonly options: ListenOptions,
  ) {}

  /** Ends every open stream gracefully (the client may listen again, on another instance) and refuses new ones. */
  endAll(): void {
    this.stopping = true;
    for (const end of this.open) end();
  }

  /** One subscriptions/listen request: a JSON-RPC error, or the event stream. */
  serve(request: globalThis.Request, body: unknown, caller: ListenCaller): globalThis.Response {
    const route = classifyInboundRequest({
      httpMethod: request.method,
      protocolVersionHeader: request.headers.get('mcp-protocol-version') ?? undefined,
      mcpMethodHeader: request.headers.get('mcp-method') ?? undefined,
      mcpNameHeader: request.headers.get('mcp-name') ?? undefined,
      body,
    });
    if (route.kind === 'reject') return jsonRpcError(route.httpStatus, route.code, route.message, route.data, requestIdOf(body));
    if (route.kind !== 'modern' || route.messageKind !== 'request') throw new Error('a subscriptions/listen request reached the listen streams misrouted');
    const { message } = route;
    const version = route.classification.revision ?? 'unknown';
    if (version !== MODERN_PROTOCOL_VERSION) {
      const error = new UnsupportedProtocolVersionError({ supported: [MODERN_PROTOCOL_VERSION], requested: version });
      return jsonRpcError(400, error.code, error.message, error.data, message.id);
    }
    const missingHeader = missingStandardHeader(request, version);
    if (missingHeader !== undefined) return jsonRpcError(400, HEADER_MISMATCH, missingHeader.message, { mismatch: { header: '(missing)', body: missingHeader.body } }, message.id);
    const params = ListenParams.safeParse(message.params);
    if (!params.success) {
      const issue = params.error.issues[0]!;
      return jsonRpcError(200, ProtocolErrorCode.InvalidParams, `Invalid params: ${['params', ...issue.path].join('.')}: ${issue.message}`, undefined, message.id);
    }
    if (this.stopping) return jsonRpcError(200, ProtocolErrorCode.InternalError, 'Server shutting down: listen again', undefined, message.id);
    if (this.open.size >= MAX_OPEN_STREAMS) return jsonRpcError(200, ProtocolErrorCode.InternalError, 'Subscription limit reached', undefined, message.id);
    return this.stream(message, honoured(params.data.notifications, declaresTasks(message)), caller, request.signal);
  }

  private stream(message: JSONRPCRequest, watched: Watched, caller: ListenCaller, signal: AbortSignal): globalThis.Response {
    const subscriptionId = message.id;
    const encoder = new TextEncoder();
    const stamp = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    const write = (payload: object) => {
      if (!ended) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...payload })}\n\n`));
    };
    /** Graceful: the listen request's result tells the client the server ended the subscription. */
    const end = (graceful: boolean) => {
      if (ended) return;
      if (graceful) write({ id: subscriptionId, result: { resultType: 'complete', _meta: { ...stamp, [SERVER_INFO_META_KEY]: this.options.serverInfo } } });
      ended = true;
      clearTimeout(timer);
      clearInterval(keepAlive);
      this.open.delete(endGracefully);
      signal.removeEventListener('abort', endAbruptly);
      try {
        controller.close();
      } catch {
        // Already closed by the client going away.
      }
    };
    const endGracefully = () => end(true);
    const endAbruptly = () => end(false);
    const watch = new ChangeWatch(this.deps, caller.viewer, watched);
    const look = async () => {
      try {
        if (!(await caller.stillValid())) return end(true);
        for (const change of await watch.look()) write({ method: notificationOf(change), params: { ...paramsOf(change), _meta: stamp } });
      } catch (error) {
        this.options.onError(error);
        return end(true);
      }
      if (!ended) timer = setTimeout(() => void look(), this.options.pollMs);
    };
    const keepAlive = setInterval(() => {
      if (!ended) controller.enqueue(encoder.encode(': keepalive\n\n'));
    }, KEEP_ALIVE_MS);
    const body = new ReadableStream<Uint8Array>({
      start: (streamController) => {
        controller = streamController;
        const notifications = acknowledged(watched);
        write({ method: 'notifications/subscriptions/acknowledged', params: { notifications, _meta: stamp } });
        // Nothing honoured, nothing to watch: the subscription ends at once.
        if (Object.keys(notifications).length === 0) return end(true);
        this.open.add(endGracefully);
        // The first look takes the fingerprints the later ones compare with.
        void look();
      },
      cancel: endAbruptly,
    });
    if (signal.aborted) endAbruptly();
    else signal.addEventListener('abort', endAbruptly, { once: true });
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
    });
  }
}

/**
 * What this server can tell: changes to the resource list and to subscribed resources, and (to a client that declared
 * the Tasks extension) its tasks. The tool and prompt lists never change while a client is connected: scopes are
 * fixed per token, toolsets per connection, and the registry per deploy.
 */
function honoured(requested: z.infer<typeof ListenParams>['notifications'], tasksDeclared: boolean): Watched {
  return {
    resourcesListChanged: requested.resourcesListChanged === true,
    resourceSubscriptions: [...new Set(requested.resourceSubscriptions ?? [])],
    taskIds: tasksDeclared ? [...new Set(requested.taskIds ?? [])] : [],
  };
}

/** The acknowledgement names only what is honoured, as the specification has it. */
function acknowledged(watched: Watched): Record<string, unknown> {
  return {
    ...(watched.resourcesListChanged ? { resourcesListChanged: true } : {}),
    ...(watched.resourceSubscriptions.length > 0 ? { resourceSubscriptions: watched.resourceSubscriptions } : {}),
    ...(watched.taskIds.length > 0 ? { taskIds: watched.taskIds } : {}),
  };
}

function notificationOf(change: Change): string {
  switch (change.kind) {
    case 'resources_list_changed':
      return 'notifications/resources/list_changed';
    case 'resource_updated':
      return 'notifications/resources/updated';
    case 'task':
      return 'notifications/tasks';
  }
}

function paramsOf(change: Change): Record<string, unknown> {
  switch (change.kind) {
    case 'resources_list_changed':
      return {};
    case 'resource_updated':
      return { uri: change.uri };
    case 'task':
      return change.task;
  }
}

function declaresTasks(message: JSONRPCRequest): boolean {
  const meta = message.params?._meta;
  return hasTaskClientCapabilityV2({ _meta: isPlainObject(meta) ? meta : {} });
}

/** The two standard headers a listen request must carry (it names nothing, so Mcp-Name does not apply), as the SDK checks them. */
function missingStandardHeader(request: globalThis.Request, version: string): { message: string; body: string } | undefined {
  if (request.headers.get('mcp-protocol-version') === null) {
    const body = `the body envelope names protocol version ${version} but the required MCP-Protocol-Version header is absent`;
    return { message: `Bad Request: the request headers and body disagree: ${body}`, body };
  }
  if (request.headers.get('mcp-method') === null) {
    const body = 'the body names method subscriptions/listen but the required Mcp-Method header is absent';
    return { message: `Bad Request: the request headers and body disagree: ${body}`, body };
  }
  return undefined;
}

function requestIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null) return null;
  const { id } = body as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function jsonRpcError(status: number, code: number, message: string, data: unknown, id: string | number | null): globalThis.Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id }, { status });
}
