import { getEncoding } from 'js-tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/scopes.js';
import { TestService } from '../support/harness.js';

/** Agents pay for tools/list in every conversation: the whole list for a key with every scope stays within this. */
const TOOLS_LIST_TOKEN_BUDGET = 25_000;
/** The catalogue the budget has to hold: about 100 operations once every planned area is in. */
const FULL_CATALOGUE_TOOLS = 100;
// o200k_base: the tokenizer of current OpenAI models, shipped inside js-tiktoken (no download).
const tokenizer = getEncoding('o200k_base');

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t?.close());

async function toolsListTokens(key: string, query = ''): Promise<{ tokens: number; tools: number }> {
  const { body } = await t.mcpRequest(key, 'tools/list', {}, query);
  const { tools } = body.result as { tools: unknown[] };
  return { tokens: tokenizer.encode(JSON.stringify(tools)).length, tools: tools.length };
}

describe('tools/list', () => {
  it(`costs at most ${TOOLS_LIST_TOKEN_BUDGET} tokens for a key with every scope`, async () => {
    const ws = await t.workspace({ scopes: ALL_SCOPES });
    const { tokens, tools } = await toolsListTokens(ws.key);
    expect(tools).toBeGreaterThan(50);
    expect(tokens, `${tools} tools cost ${tokens} tokens`).toBeLessThanOrEqual(TOOLS_LIST_TOKEN_BUDGET);
  });

  it(`costs on average at most ${TOOLS_LIST_TOKEN_BUDGET / FULL_CATALOGUE_TOOLS} tokens a tool, so that ${FULL_CATALOGUE_TOOLS} tools fit the budget`, async () => {
    const ws = await t.workspace({ scopes: ALL_SCOPES });
    const { tokens, tools } = await toolsListTokens(ws.key);
    const average = tokens / tools;
    expect(average, `${tools} tools cost ${tokens} tokens, ${average.toFixed(0)} a tool: ${FULL_CATALOGUE_TOOLS} would cost ${Math.round(average * FULL_CATALOGUE_TOOLS)}`).toBeLessThanOrEqual(
      TOOLS_LIST_TOKEN_BUDGET / FULL_CATALOGUE_TOOLS,
    );
  });
});
