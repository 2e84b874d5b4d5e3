import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { MODERN, modernRequest, type ModernAnswer } from '../support/mcp2026.js';

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await TestService.start();
  ({ key } = await t.workspace());
});
afterAll(() => t.close());

type Answer = ModernAnswer;

/** One 2026-07-28 request as the specification has a client send it, with this file's key unless the headers say otherwise. */
function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, meta?: Record<string, unknown>): Promise<Answer> {
  return modernRequest(t.baseUrl, key, method, params, { headers, ...(meta === undefined ? {} : { meta }) });
}

describe('the 2026-07-28 protocol on /mcp', () => {
  it('answers server/discover with the versions served, the capabilities, the server named in _meta and a private cache hint', async () => {
    const { status, body } = await modern('server/discover');
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      supportedVersions: expect.arrayContaining([MODERN]),
      capabilities: { tools: { listChanged: false } },
      resultType: 'complete',
      cacheScope: 'private',
      ttlMs: 60_000,
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sightline' } },
    });
    expect(body.result?.instructions).toMatch(/workspace/);
  });

  it('lists and calls tools with resultType and cache hints; a refused call is a tool error as on the older path', async () => {
    const list = await modern('tools/list');
    expect(list.body.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 60_000 });
    const names = (list.body.result?.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual(await t.mcpToolNames(key));
    const call = await modern('tools/call', { name: 'get_brand', arguments: {} });
    expect(call.body.result).toMatchObject({ resultType: 'complete', structuredContent: expect.objectContaining({ profile: expect.any(Object) }) });
    const refused = await modern('tools/call', { name: 'add_brand_guideline', arguments: { type: 'tone' } });
    expect(refused.body.result).toMatchObject({ isError: true, resultType: 'complete', structuredContent: { status: 400 } });
  });

  it('answers a plain call exactly as the SDK does when the request needs it (a progress token sends it there)', async () => {
    for (const args of [{}, { type: 'tone' }, { type: 'tone', avoid: 'jargon', instead: 'plain words' }]) {
      const name = 'type' in args ? 'add_brand_guideline' : 'get_caller';
      const plain = await modern('tools/call', { name, arguments: args });
      const viaSdk = await modern('tools/call', { name, arguments: args }, {}, { ...ENVELOPE, progressToken: 1 });
      // Each call adds its own guideline: only the new ids differ.
      const withoutIds = (answer: Answer) => JSON.stringify(answer.body).replace(/gl_[0-9a-z]+/g, 'gl_?');
      expect(plain.status).toBe(viaSdk.status);
      expect(withoutIds(plain)).toBe(withoutIds(viaSdk));
    }
  });

  it('answers a call of an unknown tool, or of one the connection filtered out, with -32602, on the plain path as through the SDK', async () => {
    for (const [name, headers] of [['no_such_tool', {}], ['add_brand_guideline', { 'x-mcp-readonly': '1' }]] as const) {
      const plain = await modern('tools/call', { name, arguments: {} }, headers);
      const viaSdk = await modern('tools/call', { name, arguments: {} }, headers, { ...ENVELOPE, progressToken: 1 });
      expect(plain.status).toBe(200);
      expect(plain.body.error).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
      expect(plain.text).toBe(viaSdk.text);
    }
  });

  it('refuses a request without the envelope fields (-32602), an unknown version (-32022) and mismatched headers (-32020), each with a 400', async () => {
    const noCapabilities = await modern('tools/list', {}, {}, { 'io.modelcontextprotocol/protocolVersion': MODERN });
    expect(noCapabilities.status).toBe(400);
    expect(noCapabilities.body.error?.code).toBe(-32602);

    const future = await modern('tools/list', {}, { 'mcp-protocol-version': '2099-01-01' }, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' });
    expect(future.status).toBe(400);
    expect(future.body.error?.code).toBe(-32022);
    expect(future.body.error?.data).toMatchObject({ requested: '2099-01-01', supported: expect.arrayContaining([MODERN]) });

    const wrongMethod = await modern('tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.body.error?.code).toBe(-32020);
    const wrongName = await modern('tools/call', { name: 'get_brand', arguments: {} }, { 'mcp-name': 'get_caller' });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.error?.code).toBe(-32020);
  });

  it('answers the methods this version removed (ping, logging/setLevel) with 404 and -32601', async () => {
    for (const method of ['ping', 'logging/setLevel']) {
      const answer = await modern(method, method === 'ping' ? {} : { level: 'info' });
      expect(answer.status).toBe(404);
      expect(answer.body.error?.code).toBe(-32601);
    }
  });

  it('refuses arguments nested past the limit with the same tool error as the older path, even far past it', async () => {
    // JSON.stringify cannot write this; the body is built by hand as a hostile client would send it.
    const lists = '['.repeat(100_000) + ']'.repeat(100_000);
    const response = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'add_brand_guideline' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_brand_guideline","arguments":{"outer":${lists}},"_meta":${JSON.stringify(ENVELOPE)}}}`,
    });
    const body = (await response.json()) as Answer['body'];
    expect(body.result).toMatchObject({ isError: true, structuredContent: { status: 400, error: expect.stringContaining('nests deeper than 64 levels') } });
  });

  it('still needs credentials: a 2026-07-28 request without them gets the OAuth challenge', async () => {
    const response = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});

describe('MCP Apps views as resources', () => {
  it('links each view from its tools and serves it as an mcp-app document with its CSP', async () => {
    const tools = (await modern('tools/list')).body.result?.tools as Array<{ name: string; _meta?: Record<string, unknown> }>;
    const score = tools.find((tool) => tool.name === 'get_visibility_score');
    expect(score?._meta).toEqual({ ui: { resourceUri: 'ui://sightline/visibility' }, 'ui/resourceUri': 'ui://sightline/visibility' });
    expect(tools.find((tool) => tool.name === 'get_brand')?._meta).toBeUndefined();

    const listed = await modern('resources/list');
    expect(listed.body.result).toMatchObject({ cacheScope: 'private', ttlMs: 60_000 });
    const uris = (listed.body.result?.resources as Array<{ uri: string; mimeType: string }>).map((resource) => resource.uri);
    expect(uris).toEqual(expect.arrayContaining(['ui://sightline/visibility', 'ui://sightline/traffic', 'ui://sightline/backlinks']));

    const read = await modern('resources/read', { uri: 'ui://sightline/visibility' });
    const [content] = read.body.result?.contents as Array<{ uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }>;
    expect(content).toMatchObject({ uri: 'ui://sightline/visibility', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } });
    expect(content?.text).toMatch(/^<!doctype html>/i);
  });

  it('answers a view the caller may not see exactly as one that does not exist: -32602 with the uri', async () => {
    const { key: leadsOnly } = await t.workspace({ scopes: ['read:leads'] });
    const asLeadsOnly = { authorization: `Bearer ${leadsOnly}` };
    expect((await modern('resources/list', {}, asLeadsOnly)).body.result?.resources).toEqual([]);
    for (const uri of ['ui://sightline/traffic', 'ui://sightline/nothing-here']) {
      const answer = await modern('resources/read', { uri }, asLeadsOnly);
      expect(answer.body.error).toMatchObject({ code: -32602, data: { uri } });
    }
  });
});

describe('clients of both eras on the same endpoint', () => {
  const transportOptions = () => ({ requestInit: { headers: { authorization: `Bearer ${key}` } } });

  it('serves the v2 client pinned to 2026-07-28: discover, list, call', async () => {
    const client = new Client({ name: 'modern-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), transportOptions()));
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('get_brand');
    const result = await client.callTool({ name: 'get_brand', arguments: {} });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toHaveProperty('profile');
    await client.close();
  });

  it('serves the v2 client negotiating automatically, and the v1 client on 2025-11-25', async () => {
    const auto = new Client({ name: 'auto-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await auto.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), transportOptions()));
    expect(auto.getProtocolEra()).toBe('modern');
    expect((await auto.callTool({ name: 'get_caller', arguments: {} })).isError).not.toBe(true);
    await auto.close();

    const older = new V1Client({ name: 'older-agent', version: '1.0.0' });
    await older.connect(new V1Transport(new URL('/mcp', t.baseUrl), transportOptions()));
    expect(older.getServerVersion()?.name).toBe('sightline');
    const result = await older.callTool({ name: 'get_brand', arguments: {} });
    expect(result.structuredContent).toHaveProperty('profile');
    await older.close();
  });

  it('completes the 2025-06-18 initialize handshake in JSON, as before', async () => {
    const response = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as Answer['body'];
    expect(body.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'sightline' } });
  });
});
