import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandMemoryPrompt } from '../../src/brand/brandMemory.js';
import { writtenArticle } from '../publishing/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';

const MODERN = '2026-07-28';

describe('resources and prompts over HTTP', () => {
  let t: TestService;
  let ws: TestWorkspace;
  const clients: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    t = await TestService.start();
    ws = await t.workspace();
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t.close();
  });

  async function modernClient(key: string, query = ''): Promise<Client> {
    const client = new Client({ name: 'modern-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`/mcp${query}`, t.baseUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  }

  it('serves a 2026-07-28 client the brand, articles and prompts, with cache hints, and not-found with the uri', async () => {
    const id = await writtenArticle(t, ws);
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const theirs = await writtenArticle(t, other);
    const client = await modernClient(ws.key);
    expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true, subscribe: true }, prompts: { listChanged: false } });

    const listed = await client.listResources();
    expect(listed).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    // The MCP Apps views (ui://) lead the list; then the workspace's own resources.
    expect(listed.resources.map((r) => r.uri).filter((uri) => uri.startsWith('sightline://'))).toEqual(['sightline://brand', 'sightline://reports/weekly', 'sightline://changes', `sightline://articles/${id}`]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)).toEqual(['sightline://articles/{id}']);

    const brand = await client.readResource({ uri: 'sightline://brand' });
    expect(brand).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(brand.contents).toEqual([{ uri: 'sightline://brand', mimeType: 'text/markdown', text: await brandMemoryPrompt(t.db, ws.workspaceId) }]);
    const article = await client.readResource({ uri: `sightline://articles/${id}` });
    expect((article.contents[0] as { text: string }).text).toMatch(/^# How to pick a CRM for dentists\n/);

    for (const uri of [`sightline://articles/${theirs}`, 'sightline://articles/art_000000000000000000000000']) {
      const error = await client.readResource({ uri }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32602, data: { uri } });
    }

    const prompts = await client.listPrompts();
    expect(prompts).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(prompts.prompts.map((p) => p.name)).toEqual(['weekly_visibility_review', 'plan_next_month', 'article_outreach_campaign']);
    const review = await client.getPrompt({ name: 'weekly_visibility_review' });
    expect((review.messages[0]!.content as { text: string }).text).toContain('1. `get_visibility_score`');
    await expect(client.getPrompt({ name: 'article_outreach_campaign', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'no_such_prompt' })).rejects.toMatchObject({ code: -32602 });
  });

  it("narrows resources and prompts by the connection's toolsets and the key's scopes", async () => {
    const brandOnly = await modernClient(ws.key, '?toolsets=brand');
    expect((await brandOnly.listResources()).resources.map((r) => r.uri)).toEqual(['sightline://brand']);
    expect((await brandOnly.listPrompts()).prompts).toEqual([]);
    await expect(brandOnly.readResource({ uri: 'sightline://reports/weekly' })).rejects.toMatchObject({ code: -32602, data: { uri: 'sightline://reports/weekly' } });

    const scopeless = await modernClient(await t.key(ws.workspaceId, ['write:social']));
    expect((await scopeless.listResources()).resources).toEqual([]);
    expect((await scopeless.listResourceTemplates()).resourceTemplates).toEqual([]);
    await expect(scopeless.readResource({ uri: 'sightline://brand' })).rejects.toMatchObject({ code: -32602, data: { uri: 'sightline://brand' } });
  });

  it('serves the same to a 2025-era client', async () => {
    const older = new V1Client({ name: 'older-agent', version: '1.0.0' });
    await older.connect(new V1Transport(new URL('/mcp', t.baseUrl), { requestInit: { headers: { authorization: `Bearer ${ws.key}` } } }));
    clients.push(older);
    expect((await older.listResources()).resources.find((r) => r.uri.startsWith('sightline://'))?.uri).toBe('sightline://brand');
    const brand = await older.readResource({ uri: 'sightline://brand' });
    expect((brand.contents[0] as { text: string }).text).toBe(await brandMemoryPrompt(t.db, ws.workspaceId));
    await expect(older.readResource({ uri: 'sightline://articles/art_000000000000000000000000' })).rejects.toMatchObject({ code: -32602 });
    expect((await older.listPrompts()).prompts).toHaveLength(3);
  });
});
