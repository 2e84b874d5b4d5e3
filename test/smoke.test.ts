import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from './support/harness.js';

describe('service skeleton', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('answers healthz', async () => {
    const response = await fetch(`${t.baseUrl}/healthz`);
    expect(response.status).toBe(200);
  });

  it('serves get_brand on REST and MCP with the same data', async () => {
    const ws = await t.workspace();
    const rest = await t.rest(ws.key, 'GET', '/api/v1/brand');
    expect(rest.status).toBe(200);
    const mcp = await t.mcpTool(ws.key, 'get_brand');
    expect(mcp.structuredContent).toEqual(rest.body.data);
  });
});
