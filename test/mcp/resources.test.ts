import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { type McpCaller, type McpDeps } from '../../src/mcp/caller.js';
import { recordChanges } from '../../src/changes/record.js';
import { articleUri, BRAND_URI, CHANGES_URI, listResources, listResourceTemplates, readResource, WEEKLY_REPORT_URI } from '../../src/mcp/resources.js';
import type { Scope } from '../../src/scopes.js';
import { writtenArticle } from '../publishing/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';

describe('MCP resources', () => {
  let t: TestService;
  let deps: McpDeps;
  beforeAll(async () => {
    t = await TestService.start();
    deps = { db: t.db, clock: t.clock, pipeline: t.service.pipeline, registry: t.service.registry };
  });
  afterAll(() => t.close());

  async function caller(key: string, connection: Partial<Omit<McpCaller, 'principal'>> = {}): Promise<McpCaller> {
    return { principal: await t.service.pipeline.authenticate(`Bearer ${key}`), toolsets: null, readOnly: false, ...connection };
  }

  async function keyWith(ws: TestWorkspace, scopes: readonly Scope[]): Promise<string> {
    return t.key(ws.workspaceId, scopes);
  }

  /** The error a read throws; fails the test when the read succeeds. */
  async function readFailure(who: McpCaller, uri: string): Promise<ProtocolError> {
    const error = await readResource(deps, who, uri).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    return error as ProtocolError;
  }

  async function expectNotFound(who: McpCaller, uri: string): Promise<void> {
    const error = await readFailure(who, uri);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect({ code: error.code, message: error.message, data: error.data }).toEqual({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
  }

  it('reads the brand memory as exactly the text the writer model is given', async () => {
    const ws = await t.workspace();
    await t.rest(ws.key, 'POST', '/api/v1/brand/guidelines', { type: 'terminology', avoid: 'customers', instead: 'clients' });
    const read = await readResource(deps, await caller(ws.key), BRAND_URI);
    expect(read).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(read.contents).toHaveLength(1);
    const [content] = read.contents;
    expect(content).toMatchObject({ uri: BRAND_URI, mimeType: 'text/markdown' });
    const text = (content as { text: string }).text;
    expect(text).toContain('Avoid: customers');

    t.writer.reply({ content: { titles: [{ title: 'CRM for agencies', keyword: 'crm for agencies' }] } });
    expect((await t.rest(ws.key, 'POST', '/api/v1/content/plan', { count: 1 })).status).toBe(200);
    const system = t.writer.requests.at(-1)!.messages[0]!.content;
    expect(system.startsWith(`${text}\n\n`)).toBe(true);
  });

  it('reads a written article as Markdown: title, body, FAQ', async () => {
    const ws = await t.workspace();
    const id = await writtenArticle(t, ws);
    const read = await readResource(deps, await caller(ws.key), articleUri(id));
    expect(read).toEqual({
      contents: [
        {
          uri: articleUri(id),
          mimeType: 'text/markdown',
          text:
            '# How to pick a CRM for dentists\n\n# How to pick a CRM for dentists\n\nPick one that books appointments and sends reminders.' +
            '\n\n## FAQ\n\n### Do dentists need a CRM?\n\nYes, to keep patients coming back.\n',
        },
      ],
      ttlMs: 60_000,
      cacheScope: 'private',
    });
  });

  it("answers another workspace's article, a planned article without a body and an unknown id alike: -32602 with the uri", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const theirs = await writtenArticle(t, other);
    const planned = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'dental crm', title: 'Dental CRM', scheduledAt: t.clock.now(), language: 'en' });
    const mine = await caller(ws.key);
    await expectNotFound(mine, articleUri(theirs));
    await expectNotFound(mine, articleUri(planned));
    await expectNotFound(mine, articleUri('art_000000000000000000000000'));
    await expectNotFound(mine, 'sightline://articles/');
    await expectNotFound(mine, 'sightline://nothing');
    // Theirs is readable by them: the refusal above was the workspace boundary, not the article.
    expect((await readResource(deps, await caller(other.key), articleUri(theirs))).contents).toHaveLength(1);
  });

  it("lists the brand, the weekly report, the recent changes and the workspace's written articles, a page at a time", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    await writtenArticle(t, other, 'Not ours');
    await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'planned', title: 'Planned only', scheduledAt: t.clock.now(), language: 'en' });
    const ids: string[] = [];
    for (let i = 0; i < 51; i++) ids.push(await writtenArticle(t, ws, `Article ${i}`));
    const who = await caller(ws.key);

    const first = await listResources(deps, who);
    expect(first).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(first.resources.slice(0, 3).map((r) => r.uri)).toEqual([BRAND_URI, WEEKLY_REPORT_URI, CHANGES_URI]);
    expect(first.resources).toHaveLength(53);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listResources(deps, who, first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    const listed = [...first.resources, ...second.resources].filter((r) => r.uri.startsWith('sightline://articles/'));
    expect(listed.map((r) => r.uri)).toEqual([...ids].sort().map(articleUri));
    expect(listed.find((r) => r.uri === articleUri(ids[0]!))).toEqual({
      uri: articleUri(ids[0]!),
      name: 'Article 0',
      title: 'Article 0',
      description: 'Article (draft), 12 words, keyword: article 0',
      mimeType: 'text/markdown',
      annotations: { lastModified: new Date(t.clock.now()).toISOString() },
    });

    const refused = await listResources(deps, who, 'not-a-cursor').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: ProtocolErrorCode.InvalidParams });
    expect(listResourceTemplates(deps, who)).toEqual({
      resourceTemplates: [expect.objectContaining({ uriTemplate: 'sightline://articles/{id}', mimeType: 'text/markdown' })],
      ttlMs: 60_000,
      cacheScope: 'private',
    });
  });

  it('shows a caller without the scopes nothing, and reading answers not found', async () => {
    const ws = await t.workspace();
    const id = await writtenArticle(t, ws);
    const scopeless = await caller(await keyWith(ws, ['write:social']));
    expect((await listResources(deps, scopeless)).resources).toEqual([]);
    expect(listResourceTemplates(deps, scopeless).resourceTemplates).toEqual([]);
    for (const uri of [BRAND_URI, WEEKLY_REPORT_URI, CHANGES_URI, articleUri(id)]) await expectNotFound(scopeless, uri);

    const analyticsOnly = await caller(await keyWith(ws, ['read:analytics']));
    expect((await listResources(deps, analyticsOnly)).resources.map((r) => r.uri)).toEqual([WEEKLY_REPORT_URI, CHANGES_URI]);
    await expectNotFound(analyticsOnly, BRAND_URI);
  });

  it("applies the connection's toolset filter as to tools", async () => {
    const ws = await t.workspace();
    const id = await writtenArticle(t, ws);
    const brandOnly = await caller(ws.key, { toolsets: new Set(['brand']) });
    expect((await listResources(deps, brandOnly)).resources.map((r) => r.uri)).toEqual([BRAND_URI]);
    expect(listResourceTemplates(deps, brandOnly).resourceTemplates).toEqual([]);
    await expectNotFound(brandOnly, articleUri(id));
    await expectNotFound(brandOnly, WEEKLY_REPORT_URI);

    const contentAndAnalytics = await caller(ws.key, { toolsets: new Set(['content', 'analytics']), readOnly: true });
    expect((await listResources(deps, contentAndAnalytics)).resources.map((r) => r.uri)).toEqual([WEEKLY_REPORT_URI, articleUri(id)]);
  });

  it("renders this week's report from get_reports_summary and get_reports_wins, once the Reports screen is on", async () => {
    const ws = await t.workspace();
    const who = await caller(ws.key);
    const before = await readResource(deps, who, WEEKLY_REPORT_URI);
    expect(before.ttlMs).toBe(300_000);
    expect((before.contents[0] as { text: string }).text).toContain('The Reports screen is not activated');

    expect((await t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'reports' })).status).toBe(200);
    const summary = (await t.rest(ws.key, 'GET', '/api/v1/reports/summary', { days: '7' })).body.data as { narrative: string; window: { from: string; to: string } };
    const text = (await readResource(deps, who, WEEKLY_REPORT_URI)).contents[0] as { text: string };
    expect(text.text).toContain(`# Weekly report: ${summary.window.from} to ${summary.window.to}`);
    expect(text.text).toContain(summary.narrative);
    expect(text.text).toContain('| Articles published | 0 | 0 | 0 |');
    expect(text.text).toContain('## Wins');
  });

  it("reads the workspace's newest changes as Markdown, the text of others escaped, and none of another workspace's", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const who = await caller(ws.key);
    const empty = (await readResource(deps, who, CHANGES_URI)).contents[0] as { text: string };
    expect(empty.text).toContain('Nothing has changed yet');

    await recordChanges(t.db, t.clock, other.workspaceId, [{ kind: 'delivery.failed', dedupeKey: 'theirs', title: 'Not ours', details: {} }]);
    await recordChanges(t.db, t.clock, ws.workspaceId, [
      { kind: 'citation.lost', dedupeKey: 'q1', title: 'ChatGPT stopped citing you for *best* [crm](x)', details: {}, engine: 'chatgpt' },
    ]);
    const read = await readResource(deps, who, CHANGES_URI);
    expect(read).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain('The 1 newest of 1');
    expect(text).toContain('**warning** · `citation.lost` · ChatGPT stopped citing you for \\*best\\* \\[crm\\]\\(x\\) (chatgpt)');
    expect(text).not.toContain('Not ours');
  });
});
