import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../tools/index.js';
import { TestService } from './support/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function raw(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const response = await fetch(`${t.baseUrl}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe('REST transport rules', () => {
  it('answers unknown routes with a JSON 404, and a known path with the wrong method with 405', async () => {
    const { key } = await t.workspace();
    const unknown = await raw('/api/v1/nope', { headers: { authorization: `Bearer ${key}` } });
    expect(unknown.status).toBe(404);
    expect(unknown.json().error).toContain('/api/v1/nope');
    const outside = await raw('/nowhere');
    expect(outside.status).toBe(404);
    expect(outside.json()).toHaveProperty('error');
    const wrongMethod = await raw('/api/v1/billing', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('refuses malformed JSON (400), other content types (415) and oversized bodies (413) with JSON errors', async () => {
    const { key } = await t.workspace();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const malformed = await raw('/api/v1/brand/profile', { method: 'POST', headers, body: '{"tone": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.json().error).toMatch(/^body: /);
    const form = await raw('/api/v1/brand/profile', { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'tone=friendly' });
    expect(form.status).toBe(415);
    expect(form.json().error).toContain('application/json');
    const huge = await raw('/api/v1/support', { method: 'POST', headers, body: JSON.stringify({ message: 'x'.repeat(300_000) }) });
    expect(huge.status).toBe(413);
    expect(huge.json()).toHaveProperty('error');
    const array = await raw('/api/v1/brand/profile', { method: 'POST', headers, body: '[1]' });
    expect(array.status).toBe(400);
    expect(array.json().error).toBe('body: must be a JSON object');
  });

  it('answers oversized headers and URLs (431) and bodies (413) on every surface with the JSON envelope', async () => {
    const { key } = await t.workspace();
    const headerTooLarge = await raw('/api/v1/brand', { headers: { authorization: `Bearer ${key}`, 'x-padding': 'y'.repeat(20_000) } });
    expect(headerTooLarge.status).toBe(431);
    expect(headerTooLarge.headers.get('content-type')).toContain('application/json');
    expect(headerTooLarge.json().error).toMatch(/^headers: /);
    const urlTooLarge = await raw(`/mcp?toolsets=${'z'.repeat(20_000)}`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(urlTooLarge.status).toBe(431);
    expect(urlTooLarge.json().error).toMatch(/^headers: /);
    const big = JSON.stringify({ padding: 'x'.repeat(300_000) });
    const mcp = await raw('/mcp', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: big });
    expect(mcp.status).toBe(413);
    expect(mcp.json().error).toBe('body: larger than the 256kb limit');
    const token = await raw('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `padding=${'x'.repeat(20_000)}` });
    expect(token.status).toBe(413);
    expect(token.json().error).toBe('body: larger than the 16kb limit');
  });

  it('refuses a repeated query parameter', async () => {
    const { key } = await t.workspace();
    const answer = await raw('/api/v1/brand?a=1&a=2', { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(400);
    expect(answer.json().error).toMatch(/^a: /);
  });

  it('serves the OpenAPI document without a key', async () => {
    const answer = await raw('/api/v1/openapi.json');
    expect(answer.status).toBe(200);
    const document = answer.json() as { openapi: string; info: { version: string }; paths: Record<string, Record<string, { operationId: string }>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(ids.sort()).toEqual(registry.operations.map((op) => op.operationId).sort());
  });

  it('refuses a foreign Host header (DNS rebinding) on every route', async () => {
    const { status } = await new Promise<{ status: number }>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(`${t.baseUrl}/healthz`, { headers: { host: 'evil.example:80' } }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        });
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(status).toBe(403);
  });
});

describe('MCP transport rules', () => {
  it('refuses a request from a foreign Origin with 403, and accepts its own origin', async () => {
    const { key } = await t.workspace();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const foreign = await raw('/mcp', { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body });
    expect(foreign.status).toBe(403);
    const port = new URL(t.baseUrl).port;
    const own = await raw('/mcp', { method: 'POST', headers: { ...headers, origin: `http://127.0.0.1:${port}` }, body });
    expect(own.status).toBe(200);
  });

  it('answers GET and DELETE with 405: the server is stateless', async () => {
    expect((await raw('/mcp')).status).toBe(405);
    expect((await raw('/mcp', { method: 'DELETE' })).status).toBe(405);
  });

  it('narrows tools/list by toolsets and to read-only tools, and refuses unknown toolsets', async () => {
    const { key } = await t.workspace();
    const brand = await t.mcpToolNames(key, '?toolsets=brand');
    expect(brand.sort()).toEqual(registry.operations.filter((op) => op.toolset === 'brand').map((op) => op.operationId).sort());
    const readOnly = await t.mcpToolNames(key, '?readonly=1');
    expect(readOnly.sort()).toEqual(registry.tools.filter((op) => op.annotations.readOnlyHint).map((op) => op.operationId).sort());
    const unknown = await t.mcpRequest(key, 'tools/list', {}, '?toolsets=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^toolsets: /);
  });

  it('takes the same filters as headers (X-MCP-Toolsets, X-MCP-Readonly), and refuses a header that contradicts the query', async () => {
    const { key } = await t.workspace();
    const list = async (query: string, headers: Record<string, string>) => {
      const answer = await raw(`/mcp${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      return { status: answer.status, body: answer.json() };
    };
    const expected = registry.tools.filter((op) => ['content', 'visibility'].includes(op.toolset) && op.annotations.readOnlyHint).map((op) => op.operationId).sort();
    const viaHeaders = await list('', { 'x-mcp-toolsets': 'content,visibility', 'x-mcp-readonly': '1' });
    expect((viaHeaders.body.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(expected);
    const agreeing = await list('?toolsets=content,visibility&readonly=1', { 'x-mcp-toolsets': 'content,visibility' });
    expect((agreeing.body.result as { tools: unknown[] }).tools).toHaveLength(expected.length);
    const contradicting = await list('?toolsets=brand', { 'x-mcp-toolsets': 'team' });
    expect(contradicting.status).toBe(400);
    expect(contradicting.body.error).toBe('toolsets: given as ?toolsets and as the x-mcp-toolsets header with different values');
  });

  it('answers a call of a tool the connection filtered out exactly as one of an unknown tool: -32602, as the MCP specification has it', async () => {
    const { key } = await t.workspace();
    const writer = registry.tools.find((op) => !op.annotations.readOnlyHint)!;
    const filtered = await t.mcpRequest(key, 'tools/call', { name: writer.operationId, arguments: {} }, '?readonly=1');
    expect(filtered).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: `Unknown tool: ${writer.operationId}` } } });
    const unknown = await t.mcpRequest(key, 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(unknown.body.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
  });

  it('answers a plain tools/call byte for byte as the SDK server does, and leaves every other message to the SDK', async () => {
    const { key } = await t.workspace();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const call = (params: Record<string, unknown>, extraHeaders: Record<string, string> = {}, envelope: Record<string, unknown> = {}) =>
      raw('/mcp?toolsets=brand', {
        method: 'POST',
        headers: { ...headers, ...extraHeaders },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'call-7', method: 'tools/call', params, ...envelope }),
      });
    const calls = [
      { name: 'get_brand', arguments: {} },
      { name: 'get_brand' },
      { name: 'unknown_tool' },
      { name: 'list_queries', arguments: {} },
      { name: 'add_brand_guideline', arguments: { type: 'nonsense' } },
    ];
    for (const params of calls) {
      const plain = await call(params);
      // With `_meta` the same call goes through the SDK's server and transport.
      const throughSdk = await call({ ...params, _meta: {} });
      expect(plain.status).toBe(200);
      expect([plain.status, plain.headers.get('content-type'), plain.text]).toEqual([throughSdk.status, throughSdk.headers.get('content-type'), throughSdk.text]);
    }
    expect((await call({ name: 'get_brand' }, {}, { id: 7 })).json().id).toBe(7);
    // Refused by the SDK's transport, not answered: a wrong Accept, an unknown protocol version, a malformed envelope.
    expect((await call({ name: 'get_brand' }, { accept: 'application/json' })).status).toBe(406);
    expect((await call({ name: 'get_brand' }, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await call({ name: 'get_brand' }, {}, { extra: true })).status).toBe(400);
    expect((await call({ name: 'get_brand' }, {}, { id: 1.5 })).status).toBe(400);
  });

  it("works with the MCP SDK's own client: initialize, list, call", async () => {
    const { key } = await t.workspace();
    const client = new Client({ name: 'contract-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    expect(client.getServerVersion()?.name).toBe('sightline');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(registry.tools.map((op) => op.operationId).sort());
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.annotations).toBeDefined();
      expect(tool.inputSchema.type).toBe('object');
    }
    const result = await client.callTool({ name: 'get_brand', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { identity: { websiteUrl: string } }).identity.websiteUrl).toBe('https://acme.example');
    await client.close();
  });

  it('publishes every outputSchema on request (?output_schemas=1), and the SDK client validates answers, dry runs and refusals against them', async () => {
    const { key } = await t.workspace();
    const plain = new Client({ name: 'contract-test', version: '1.0.0' });
    await plain.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    expect((await plain.listTools()).tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
    await plain.close();

    const client = new Client({ name: 'contract-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp?output_schemas=1`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    const { tools } = await client.listTools();
    expect(tools.length).toBe(registry.tools.length);
    // A read of a screen not yet activated may answer null, which structured content cannot hold: those declare none.
    const screenReads = new Set(registry.tools.filter((op) => op.screen !== null).map((op) => op.operationId));
    expect([...screenReads].sort()).toEqual(['get_reports_summary', 'get_reports_wins', 'get_traffic_overview']);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe(screenReads.has(tool.name) ? undefined : 'object');
    expect((await client.callTool({ name: 'get_traffic_overview', arguments: {} })).content).toEqual([{ type: 'text', text: 'null' }]);
    // callTool validates structuredContent against the tool's outputSchema and throws when it does not match.
    expect((await client.callTool({ name: 'get_brand', arguments: {} })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'invite_team_member', arguments: { email: 'new@acme.example' } })).structuredContent).toMatchObject({ dryRun: true });
    const refused = await client.callTool({ name: 'add_brand_guideline', arguments: { type: 'nonsense' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 400 });
    await client.close();
  });
});

describe('CORS on /mcp', () => {
  it('answers a preflight from an allowed origin before authentication, and refuses a foreign one', async () => {
    const port = new URL(t.baseUrl).port;
    const own = `http://127.0.0.1:${port}`;
    const preflight = await raw('/mcp', { method: 'OPTIONS', headers: { origin: own, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(own);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const unauthenticated = await raw('/mcp', { method: 'POST', headers: { origin: own, 'content-type': 'application/json' }, body: '{}' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    const foreign = await raw('/mcp', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  });
});

describe('Strict-Transport-Security', () => {
  /** Answers of every kind: liveness, the API (a document, a refusal, an unknown route), MCP, OAuth metadata, a page. */
  const answers = async (baseUrl: string) => {
    const requests: [string, RequestInit][] = [
      ['/healthz', {}],
      ['/api/v1/openapi.json', {}],
      ['/api/v1/brand', {}],
      ['/api/v1/nowhere', {}],
      ['/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['/.well-known/oauth-authorization-server', {}],
      ['/signin', {}],
    ];
    return Promise.all(requests.map(async ([path, init]) => {
      const response = await fetch(`${baseUrl}${path}`, init);
      await response.arrayBuffer();
      return [path, response.status, response.headers.get('strict-transport-security')] as const;
    }));
  };

  it('is sent on every answer for a year, without includeSubDomains, when PUBLIC_URL is https', async () => {
    const published = await TestService.start({ writer: false, env: { PUBLIC_URL: 'https://sightline.example' } });
    try {
      for (const [path, status, header] of await answers(published.baseUrl)) expect(header, `${path} (${status})`).toBe('max-age=31536000');
    } finally {
      await published.close();
    }
  });

  it('is not sent when PUBLIC_URL is http', async () => {
    for (const [path, status, header] of await answers(t.baseUrl)) expect(header, `${path} (${status})`).toBeNull();
  });
});
