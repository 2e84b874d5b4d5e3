import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/scopes.js';
import { registry } from '../../tools/index.js';
import type { JsonSchema, RegisteredMcpOperation, RegisteredOperation } from '../../tools/registry.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { closeCloudflare, cdnEnv } from './cloudflare.js';
import { closePostiz } from './schedulers.js';
import { fixtures } from './fixtures.js';
import { sharedSiteBuilderFakes } from '../integrations/fakes/siteBuilders.js';

/**
 * Malformed calls, sent to every operation of the registry on both surfaces as raw JSON (so that keys such as
 * `__proto__` reach the server exactly as written): each gets a clean refusal, never a 5xx, and the same verdict
 * and message on REST and MCP.
 */
let t: TestService;
// A workspace per operation, so that one operation's fixtures never meet another's workspace limits.
let ws: TestWorkspace;
beforeAll(async () => {
  // One engine configured, so run_visibility_check has something to plan; its checks are never run here.
  // The site builders are local fakes the install fixtures put sites on.
  t = await TestService.start({ outbound: { allowPrivateAddresses: true }, env: { ENGINE_PERPLEXITY_BASE_URL: 'http://127.0.0.1:9', SOCIAL_SOURCES_OFF: 'stackexchange', HACKERNEWS_BASE_URL: 'http://127.0.0.1:9', ...(await cdnEnv()), ...(await sharedSiteBuilderFakes()).env } });
});
afterAll(async () => {
  await t.close();
  await closeCloudflare();
  await closePostiz();
});

interface Verdict {
  status: number;
  error: string | undefined;
}

// Route caps are per key and per minute, and refusals count: a key per call keeps every verdict about the input.
// Keys are made ahead, in batches, so that making one never shows in a "nothing changed" snapshot.
let spareKeys: string[] = [];
async function stockKeys(count: number): Promise<void> {
  while (spareKeys.length < count) spareKeys.push(await t.key(ws.workspaceId, ALL_SCOPES));
}
function freshKey(): string {
  const key = spareKeys.pop();
  if (key === undefined) throw new Error('no spare key left: stock more before the calls');
  return key;
}

async function restVerdict(op: RegisteredOperation, json: string): Promise<Verdict> {
  const response = await fetch(new URL(op.path, t.baseUrl), {
    method: 'POST',
    headers: { ...(op.scope === 'public' ? {} : { authorization: `Bearer ${freshKey()}` }), 'content-type': 'application/json' },
    body: json,
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error };
}

interface JsonRpcAnswer {
  status: number;
  result?: { isError?: boolean; structuredContent?: { status?: number; error?: string } };
  error?: { code: number; message: string };
}

async function mcpCall(op: RegisteredMcpOperation, argumentsJson: string): Promise<JsonRpcAnswer> {
  const response = await fetch(new URL('/mcp', t.baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${freshKey()}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(op.operationId)},"arguments":${argumentsJson}}}`,
  });
  return { status: response.status, ...((await response.json()) as Omit<JsonRpcAnswer, 'status'>) };
}

async function mcpVerdict(op: RegisteredMcpOperation, argumentsJson: string): Promise<Verdict> {
  const answer = await mcpCall(op, argumentsJson);
  expect(answer.status, JSON.stringify(answer)).toBe(200);
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  const refused = answer.result?.isError === true;
  return { status: refused ? answer.result!.structuredContent!.status! : 200, error: refused ? answer.result!.structuredContent!.error : undefined };
}

/** The raw JSON of an input with one more member, written after the others. */
function withMember(input: Record<string, unknown>, key: string, valueJson: string): string {
  const members = Object.entries(input).map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  return `{${[...members, `${JSON.stringify(key)}:${valueJson}`].join(',')}}`;
}

/** Lists inside lists, as a field's value: the body around them makes one level more. */
function nestedLists(lists: number): string {
  return `${'['.repeat(lists)}${']'.repeat(lists)}`;
}

/** A field holding 64 lists nests 65 levels (100,000 overflowed the stack of the walk that looks for reserved keys). */
const TOO_DEEP = [64, 100_000].map((lists) => withMember({}, 'outer', nestedLists(lists)));
const DEPTH_REFUSAL = 'outer[0][0][0][0][0][0][0][0][0][0][0][0…: nests deeper than 64 levels of objects and lists';

function firstStringField(op: RegisteredMcpOperation): string | undefined {
  const properties = (op.inputJsonSchema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).find(([, schema]) => schema.type === 'string')?.[0];
}

describe.each(registry.tools.map((op) => [op.operationId, op] as const))('%s', (_id, op: RegisteredMcpOperation) => {
  const fixture = fixtures[op.operationId]!;
  beforeAll(async () => {
    ws = await t.workspace({ plan: 'scale' });
    spareKeys = [];
  });

  it('answers arguments that are not an object with invalid params naming `arguments`', async () => {
    await stockKeys(8);
    for (const shape of ['null', '[]', '"text"', '42']) {
      const answer = await mcpCall(op, shape);
      expect(answer.status).toBe(200);
      expect(answer.error?.code, `arguments ${shape}: ${JSON.stringify(answer)}`).toBe(-32602);
      expect(answer.error?.message).toMatch(/\barguments\b/);
      if (op.method === 'POST') {
        const rest = await restVerdict(op, shape);
        expect(rest.status).toBe(400);
        expect(rest.error).toMatch(/^body: /);
      }
    }
  });

  it('refuses __proto__, constructor and prototype keys with a 400 naming the field, alike on both surfaces, and changes nothing', async () => {
    const valid = await fixture.valid(t, ws);
    await stockKeys(12);
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      for (const json of [withMember(valid, key, '{"polluted":true}'), withMember(valid, 'outer', `{${JSON.stringify(key)}:1}`)]) {
        const before = await snapshot(t.db);
        const mcp = await mcpVerdict(op, json);
        expect(mcp.status, json).toBe(400);
        expect(mcp.error).toContain(key);
        if (op.method === 'POST') expect(await restVerdict(op, json)).toEqual(mcp);
        else {
          const url = new URL(op.path, t.baseUrl);
          url.searchParams.set(key, '1');
          const response = await fetch(url, { headers: { authorization: `Bearer ${freshKey()}` } });
          expect(response.status).toBe(400);
          expect(((await response.json()) as { error: string }).error).toBe(`${key}: is a reserved key name and not accepted anywhere in an input`);
        }
        expect(await snapshot(t.db)).toEqual(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    }
  });

  it('refuses a string holding a lone UTF-16 surrogate with a 400 naming the field, alike on both surfaces', async () => {
    const valid = await fixture.valid(t, ws);
    const field = firstStringField(op) ?? 'notAField';
    const rest: Record<string, unknown> = Object.fromEntries(Object.entries(valid).filter(([name]) => name !== field));
    // Written by hand: JSON.stringify would escape the surrogate the same way, but the point is the wire form.
    const json = withMember(rest, field, '"caf\\ud800e"');
    await stockKeys(2);
    const mcp = await mcpVerdict(op, json);
    expect(mcp).toEqual({ status: 400, error: `${field}: must not hold a lone UTF-16 surrogate (send well-formed Unicode)` });
    // A query string is UTF-8 and cannot carry a lone surrogate, so GET routes are covered by MCP alone.
    if (op.method === 'POST') expect(await restVerdict(op, json)).toEqual(mcp);
  });

  it('refuses objects and lists nested deeper than 64 levels with a 400 naming where, alike on both surfaces; 64 levels reach the schema', async () => {
    const valid = await fixture.valid(t, ws);
    await stockKeys(6);
    for (const lists of [64, 100_000]) {
      const json = withMember(valid, 'outer', nestedLists(lists));
      const mcp = await mcpVerdict(op, json);
      expect(mcp).toEqual({ status: 400, error: DEPTH_REFUSAL });
      // A query string has no nesting, so GET routes are covered by MCP alone.
      if (op.method === 'POST') expect(await restVerdict(op, json)).toEqual(mcp);
    }
    const deepest = withMember(valid, 'outer', nestedLists(63));
    const mcp = await mcpVerdict(op, deepest);
    expect(mcp.status).toBe(400);
    expect(mcp.error).toContain('outer: is not a field of this operation');
    if (op.method === 'POST') expect(await restVerdict(op, deepest)).toEqual(mcp);
  });

  it('gives every field every JSON kind without a 5xx, and the same verdict on both surfaces', async () => {
    const properties = Object.keys(op.inputJsonSchema.properties ?? {}).filter((name) => name !== 'confirm');
    const valid = await fixture.valid(t, ws);
    const kinds = ['null', 'true', '-1', '1e308', '""', '"x"', '[]', '[1]', '{}', '{"a":[null]}'];
    await stockKeys(properties.length * kinds.length * 2);
    for (const field of properties) {
      for (const kind of kinds) {
        const others = Object.fromEntries(Object.entries(valid).filter(([name]) => name !== field));
        const json = withMember(others, field, kind);
        const mcp = await mcpVerdict(op, json);
        expect(mcp.status, `${field}=${kind}`).toBeLessThan(500);
        // A 400 names a field: this one, or the one a rule across fields points at (`productId: is required to delete`).
        if (mcp.status === 400) expect(mcp.error, `${field}=${kind}`).toMatch(/^[\w.[\]]+: /);
        if (op.method === 'POST' && mcp.status === 400) expect(await restVerdict(op, json), `${field}=${kind}`).toEqual(mcp);
      }
    }
  });
});

describe.each(registry.operations.filter((op) => op.scope === 'public').map((op) => [op.operationId, op] as const))('%s (public, REST only)', (_id, op) => {
  it('refuses objects and lists nested deeper than 64 levels before anyone is signed in', async () => {
    for (const json of TOO_DEEP) expect(await restVerdict(op, json)).toEqual({ status: 400, error: DEPTH_REFUSAL });
  });
});

describe('tools/call through the SDK (a request the fast path leaves to it)', () => {
  // `_meta` sends the call through the MCP SDK's server; the verdicts stay those of the fast path.
  const viaSdk = async (argumentsJson: string) => {
    const op = registry.get('add_brand_guideline')!;
    ws = await t.workspace();
    await stockKeys(1);
    const response = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${freshKey()}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"${op.operationId}","arguments":${argumentsJson},"_meta":{"progressToken":1}}}`,
    });
    return (await response.json()) as JsonRpcAnswer;
  };

  it('keeps a __proto__ key for the pipeline to refuse', async () => {
    const answer = await viaSdk('{"type":"tone","avoid":"jargon","instead":"plain words","__proto__":{"x":1}}');
    expect(answer.result?.structuredContent).toEqual({ status: 400, error: '__proto__: is a reserved key name and not accepted anywhere in an input' });
  });

  it('refuses arguments nested deeper than 64 levels as the fast path does', async () => {
    for (const json of TOO_DEEP) expect((await viaSdk(json)).result?.structuredContent).toEqual({ status: 400, error: DEPTH_REFUSAL });
  });

  it('answers arguments that are not an object with invalid params naming `arguments`', async () => {
    const answer = await viaSdk('null');
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/\barguments\b/);
  });
});
