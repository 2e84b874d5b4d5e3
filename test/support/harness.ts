import { createServer } from 'node:net';
import { pino, type Logger } from 'pino';
import type { DatabaseHandle } from '../../db/database.js';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { createUser } from '../../src/operator.js';
import type { OutboundOptions } from '../../src/outbound/safeFetch.js';
import type { MxResolver } from '../../src/outreach/contacts/finder.js';
import type { PlanName } from '../../src/plans.js';
import { ALL_SCOPES, type Scope } from '../../src/scopes.js';
import { createService, type Service } from '../../src/compositionRoot.js';
import type { RegisteredOperation, Registry } from '../../tools/registry.js';
import { answerProblems } from './answerSchemas.js';
import type { JobWorker } from '../../src/jobs/worker.js';
import type { Timing } from '../../src/outsideServices.js';
import { FakeWriter } from '../integrations/fakes/openai.js';
import { openTestDatabase } from './database.js';
import { Visitor } from './visitor.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export const START_TIME = Date.parse('2026-11-21T09:00:00.000Z');
/** The password of every dashboard user `user` and `signedInOwner` make. */
export const PASSWORD = 'correct horse battery';

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface McpToolAnswer {
  isError: boolean;
  structuredContent: Record<string, unknown>;
  text: string;
}

export interface TestWorkspace {
  workspaceId: string;
  key: string;
  keyId: string;
}

/** A real service on a free loopback port, its database, and helpers to call it over both surfaces. */
export class TestService {
  private constructor(
    readonly service: Service,
    readonly database: DatabaseHandle,
    readonly clock: ManualClock,
    readonly baseUrl: string,
    private readonly fakeWriter: FakeWriter | undefined,
  ) {}

  /**
   * The writer model is a local fake (FakeWriter) unless `writer: false`. The job worker does not poll: tests run
   * due jobs with `t.jobs.drain()` after moving the clock.
   */
  static async start(
    options: {
      registry?: Registry;
      outbound?: OutboundOptions;
      writer?: boolean;
      timing?: Partial<Timing>;
      env?: Record<string, string>;
      /** A handle on a database other instances share (see sharedTestDatabase); a private one when not given. */
      database?: DatabaseHandle;
      clock?: ManualClock;
      /** MX records of the domains the outreach contact finder checks, in place of DNS. */
      mxResolver?: MxResolver;
      /** Where the service logs; silent unless TEST_LOG_LEVEL is set. */
      logger?: Logger;
    } = {},
  ): Promise<TestService> {
    const database = options.database ?? (await openTestDatabase());
    const clock = options.clock ?? new ManualClock(START_TIME);
    const writer = options.writer === false ? undefined : await FakeWriter.start();
    // A real port up front, so that PUBLIC_URL (the OAuth issuer, links handed out) is the address clients use.
    const config = loadConfig({
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      JOBS_POLL_MS: '0',
      // No load balancer polls a test instance, so a stop need not wait for one to notice; the shutdown tests set it.
      SHUTDOWN_READINESS_DELAY_MS: '0',
      // Fake providers have no per-minute limits; a test of the pacing sets its own.
      ...Object.fromEntries(['ENGINE_CHATGPT_RPM', 'ENGINE_PERPLEXITY_RPM', 'ENGINE_GEMINI_RPM', 'ENGINE_CLAUDE_RPM', 'ENGINE_COPILOT_RPM', 'SERP_RPM'].map((name) => [name, '100000'])),
      // HN and Stack Exchange need no key, so they are on by default; no test reaches the real ones.
      SOCIAL_SOURCES_OFF: 'hackernews,stackexchange',
      ...(writer ? { WRITER_BASE_URL: writer.baseUrl, WRITER_MODEL: 'fake-writer-1', WRITER_EMBEDDING_MODEL: 'fake-embedding-1', WRITER_API_KEY: 'sk-test' } : {}),
      ...options.env,
    });
    const service = await createService({
      config,
      database,
      clock,
      logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      writerTuning: { backoffMs: 5, timeoutMs: 2000 },
      engineTuning: { backoffMs: 5, timeoutMs: 2000 },
      ...(options.registry ? { registry: options.registry } : {}),
      ...(options.outbound ? { outbound: options.outbound } : {}),
      ...(options.timing ? { timing: options.timing } : {}),
      ...(options.mxResolver ? { mxResolver: options.mxResolver } : {}),
    });
    const baseUrl = await service.listen();
    return new TestService(service, database, clock, baseUrl, writer);
  }

  /** The fake writer model; throws when the service was started without one. */
  get writer(): FakeWriter {
    if (this.fakeWriter === undefined) throw new Error('this TestService was started with writer: false');
    return this.fakeWriter;
  }

  get jobs(): JobWorker {
    return this.service.jobs;
  }

  get db() {
    return this.database.db;
  }

  async close(): Promise<void> {
    await this.service.close();
    await this.fakeWriter?.close();
  }

  /** A workspace with one key; `scale` by default so that plan limits stay out of the way of other assertions. */
  async workspace(options: { plan?: PlanName; scopes?: readonly Scope[]; name?: string; site?: string } = {}): Promise<TestWorkspace> {
    const workspaceId = await createWorkspace(this.db, this.clock, {
      name: options.name ?? 'Acme Analytics',
      websiteUrl: options.site ?? 'https://acme.example',
      plan: options.plan ?? 'scale',
    });
    const { key, keyId } = await createApiKey(this.db, this.clock, { workspaceId, scopes: options.scopes ?? ALL_SCOPES, name: 'test' });
    return { workspaceId, key, keyId };
  }

  /** A workspace whose owner is signed in to the dashboard in `visitor`. */
  async signedInOwner(): Promise<TestWorkspace & { email: string; visitor: Visitor }> {
    const ws = await this.workspace();
    const email = `owner-${ws.workspaceId}@acme.example`;
    await this.user(ws.workspaceId, email, 'owner');
    const visitor = new Visitor(this.baseUrl);
    await visitor.signIn(email, PASSWORD);
    return { ...ws, email, visitor };
  }

  async key(workspaceId: string, scopes: readonly Scope[]): Promise<string> {
    return (await createApiKey(this.db, this.clock, { workspaceId, scopes, name: 'test' })).key;
  }

  async user(workspaceId: string, email: string, role: 'owner' | 'member'): Promise<string> {
    return (await createUser(this.db, this.clock, { email, password: PASSWORD, workspaceId, role })).userId;
  }

  /** Calls an operation over REST: GET inputs go in the query string, POST inputs in a JSON body. */
  async rest(key: string | undefined, method: 'GET' | 'POST', path: string, input?: Record<string, unknown>): Promise<Answer> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = {};
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (method === 'GET') {
      for (const [name, value] of Object.entries(input ?? {})) url.searchParams.set(name, String(value));
    } else if (input !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input);
    }
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const answer = { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
    if (answer.status === 200) {
      const operation = this.service.registry.operations.find((op) => op.method === method && op.path === url.pathname);
      if (operation !== undefined) this.expectDocumented(operation, answer.body.data, 'REST');
    }
    return answer;
  }

  /** Every answer a test receives is checked against the schema the exports publish, so each test is a contract test too. */
  private expectDocumented(operation: RegisteredOperation, data: unknown, surface: string): void {
    const problems = answerProblems(operation, data);
    if (problems.length > 0) throw new Error(`${operation.operationId} answered on ${surface} outside its documented schema: ${problems.join('; ')}; answer ${JSON.stringify(data)}`);
  }

  /** One JSON-RPC request to /mcp (stateless: no session is needed). */
  async mcpRequest(key: string | undefined, method: string, params: Record<string, unknown> = {}, query = ''): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    const response = await fetch(new URL(`/mcp${query}`, this.baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async mcpTool(key: string, name: string, args: Record<string, unknown> = {}, query = ''): Promise<McpToolAnswer> {
    const { status, body } = await this.mcpRequest(key, 'tools/call', { name, arguments: args }, query);
    if (status !== 200 || body.result === undefined) throw new Error(`tools/call ${name} answered ${status}: ${JSON.stringify(body)}`);
    const result = body.result as { isError?: boolean; structuredContent: Record<string, unknown>; content: Array<{ text: string }> };
    const operation = this.service.registry.get(name);
    // A null answer (a screen not yet activated) comes as text alone: MCP's structured content is an object.
    const answer = result.structuredContent ?? JSON.parse(result.content[0]?.text ?? 'null');
    if (result.isError !== true && operation !== undefined) this.expectDocumented(operation, answer, 'MCP');
    return { isError: result.isError === true, structuredContent: result.structuredContent, text: result.content[0]?.text ?? '' };
  }

  async mcpToolNames(key: string, query = ''): Promise<string[]> {
    const { body } = await this.mcpRequest(key, 'tools/list', {}, query);
    return ((body.result as { tools: Array<{ name: string }> }).tools ?? []).map((t) => t.name);
  }
}
