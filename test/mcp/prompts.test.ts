import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allows } from '../../tools/define.js';
import type { McpCaller, McpDeps } from '../../src/mcp/caller.js';
import { getPrompt, listPrompts, WORKFLOW_PROMPTS } from '../../src/mcp/prompts.js';
import type { Scope } from '../../src/scopes.js';
import { writtenArticle } from '../publishing/support.js';
import { TestService } from '../support/harness.js';

describe('MCP prompts', () => {
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

  async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    const { code, message } = error as ProtocolError;
    return { code, message };
  }

  /** The tools a prompt's message names, in the order it names them. */
  function namedTools(text: string): string[] {
    return [...text.matchAll(/^\d+\. `([a-z_]+)`/gm)].map((match) => match[1]!);
  }

  async function publishedArticle(workspaceId: string): Promise<string> {
    const id = await writtenArticle(t, { workspaceId });
    await t.db.updateTable('articles').set({ status: 'published', url: 'https://acme.example/blog/crm-for-dentists', published_at: t.clock.now() }).where('id', '=', id).execute();
    return id;
  }

  it('names only tools of the registry, in its own toolset, each once, in the order of its message', async () => {
    const ws = await t.workspace();
    const articleId = await publishedArticle(ws.workspaceId);
    const everyone = await caller(ws.key);
    const args: Record<string, Record<string, string>> = { article_outreach_campaign: { articleId } };
    expect(WORKFLOW_PROMPTS.map((prompt) => prompt.name)).toEqual(['weekly_visibility_review', 'plan_next_month', 'article_outreach_campaign']);
    for (const prompt of WORKFLOW_PROMPTS) {
      expect(t.service.registry.toolsets).toContain(prompt.toolset);
      expect(new Set(prompt.tools).size).toBe(prompt.tools.length);
      const toolsets = prompt.tools.map((id) => t.service.registry.tools.find((tool) => tool.operationId === id)?.toolset);
      expect(toolsets, prompt.name).not.toContain(undefined);
      expect(toolsets, prompt.name).toContain(prompt.toolset);
      const result = await getPrompt(deps, everyone, prompt.name, args[prompt.name]);
      expect(result.messages).toHaveLength(1);
      const [message] = result.messages;
      expect(message!.role).toBe('user');
      expect(message!.content.type).toBe('text');
      expect(namedTools((message!.content as { text: string }).text)).toEqual(prompt.tools);
    }
  });

  it('lists every prompt to a caller with every scope, with its arguments and cache hints', async () => {
    const ws = await t.workspace();
    const listed = listPrompts(deps, await caller(ws.key));
    expect(listed).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(listed.prompts.map((prompt) => [prompt.name, prompt.arguments])).toEqual([
      ['weekly_visibility_review', []],
      ['plan_next_month', [{ name: 'topic', description: expect.any(String), required: false }]],
      ['article_outreach_campaign', [{ name: 'articleId', description: expect.any(String), required: true }]],
    ]);
  });

  it('lists a prompt only to a caller who may call every tool it names', async () => {
    const ws = await t.workspace();
    expect(listPrompts(deps, await caller(await t.key(ws.workspaceId, ['write:social']))).prompts).toEqual([]);
    const readers: Scope[] = ['read:citations', 'read:analytics', 'read:content'];
    const reader = await caller(await t.key(ws.workspaceId, readers));
    expect(listPrompts(deps, reader).prompts.map((prompt) => prompt.name)).toEqual(['weekly_visibility_review']);
    for (const prompt of WORKFLOW_PROMPTS) {
      const callable = prompt.tools.every((id) => allows(t.service.registry.tools.find((tool) => tool.operationId === id)!, new Set(readers)));
      expect(listPrompts(deps, reader).prompts.some((listed) => listed.name === prompt.name), prompt.name).toBe(callable);
    }
    // Not shown is not there: getting it answers like a name that does not exist.
    expect(await refusal(getPrompt(deps, reader, 'plan_next_month', {}))).toEqual({ code: ProtocolErrorCode.InvalidParams, message: 'unknown prompt plan_next_month' });
  });

  it("applies the connection's toolsets and read-only setting", async () => {
    const ws = await t.workspace();
    expect(listPrompts(deps, await caller(ws.key, { toolsets: new Set(['content']) })).prompts.map((prompt) => prompt.name)).toEqual(['plan_next_month']);
    expect(listPrompts(deps, await caller(ws.key, { toolsets: new Set(['visibility']) })).prompts).toEqual([]);
    expect(listPrompts(deps, await caller(ws.key, { toolsets: new Set(['visibility', 'analytics']) })).prompts.map((prompt) => prompt.name)).toEqual([
      'weekly_visibility_review',
    ]);
    expect(listPrompts(deps, await caller(ws.key, { readOnly: true })).prompts.map((prompt) => prompt.name)).toEqual(['weekly_visibility_review']);
  });

  it('refuses an unknown name and missing or invalid arguments with -32602', async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const theirs = await publishedArticle(other.workspaceId);
    const draft = await writtenArticle(t, ws);
    const who = await caller(ws.key);
    const invalid = (message: string) => ({ code: ProtocolErrorCode.InvalidParams, message });
    expect(await refusal(getPrompt(deps, who, 'no_such_prompt', {}))).toEqual(invalid('unknown prompt no_such_prompt'));
    expect(await refusal(getPrompt(deps, who, 'article_outreach_campaign', {}))).toEqual(invalid('articleId: is required'));
    expect(await refusal(getPrompt(deps, who, 'article_outreach_campaign', undefined))).toEqual(invalid('articleId: is required'));
    expect(await refusal(getPrompt(deps, who, 'weekly_visibility_review', { days: '7' }))).toMatchObject({ code: ProtocolErrorCode.InvalidParams, message: expect.stringContaining('days') });
    expect(await refusal(getPrompt(deps, who, 'plan_next_month', { topic: 'x'.repeat(201) }))).toMatchObject({ code: ProtocolErrorCode.InvalidParams, message: expect.stringContaining('topic') });
    const missing = await refusal(getPrompt(deps, who, 'article_outreach_campaign', { articleId: 'art_000000000000000000000000' }));
    expect(missing).toEqual(invalid('article art_000000000000000000000000 not found in this workspace'));
    // Another workspace's article is refused exactly as one that never existed.
    expect(await refusal(getPrompt(deps, who, 'article_outreach_campaign', { articleId: theirs }))).toEqual(invalid(`article ${theirs} not found in this workspace`));
    expect((await refusal(getPrompt(deps, who, 'article_outreach_campaign', { articleId: draft }))).message).toMatch(/^articleId: .* has no live page yet/);
  });

  it("writes the article's title and live URL into the outreach campaign, and the topic into the plan", async () => {
    const ws = await t.workspace();
    const articleId = await publishedArticle(ws.workspaceId);
    const who = await caller(ws.key);
    const campaign = await getPrompt(deps, who, 'article_outreach_campaign', { articleId });
    const text = (campaign.messages[0]!.content as { text: string }).text;
    expect(text).toContain('"How to pick a CRM for dentists" (https://acme.example/blog/crm-for-dentists)');
    expect(text).toContain('confirm: true only for the emails I approve');
    const plan = await getPrompt(deps, who, 'plan_next_month', { topic: 'CRM [for] *dentists*' });
    expect((plan.messages[0]!.content as { text: string }).text).toContain('with topic "CRM \\[for\\] \\*dentists\\*"');
  });
});
