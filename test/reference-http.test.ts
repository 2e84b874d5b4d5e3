import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../tools/define.js';
import { registry } from '../tools/index.js';
import { extendRegistry } from '../tools/registry.js';
import { TestService } from './support/harness.js';

// Registered only here: text with markup in every field the reference prints, which must reach the page as text.
const markupInText = defineTool({
  operationId: 'get_markup_for_test',
  method: 'GET',
  path: '/api/v1/test/markup',
  scope: 'read:content',
  cap: 'plan',
  description: 'Reads <script>alert("description")</script> nothing.',
  annotations: { title: '<b>Markup</b> title', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ term: z.string().describe('<img src=x onerror=alert(1)>') }),
  output: z.object({ echoed: z.string().describe('<script>alert("answer")</script>') }),
  confirm: 'none',
  handler: async (_ctx, input) => ({ echoed: input.term }),
});

let t: TestService;
beforeAll(async () => {
  t = await TestService.start({ registry: extendRegistry(registry, 'test', { description: 'Operations that exist only in tests.', operations: [markupInText] }) });
});
afterAll(() => t.close());

describe('the API reference at /docs', () => {
  it('lists every operation of the registry, each linked to its page, without a session', async () => {
    const index = await fetch(`${t.baseUrl}/docs`, { redirect: 'manual' });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    const text = await index.text();
    expect(text).not.toMatch(/<script/i);
    for (const operation of registry.operations) expect(text).toContain(`<a href="/docs/${operation.operationId}">`);
  });

  it("shows an operation's scope, method and path, cap and examples on its page, without a session", async () => {
    for (const operation of registry.operations.filter((op) => ['get_brand', 'add_query', 'post_auth_device_start'].includes(op.operationId))) {
      const page = await fetch(`${t.baseUrl}/docs/${operation.operationId}`, { redirect: 'manual' });
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain(`<code>${operation.method} ${operation.path}</code>`);
      expect(text).toContain('<dt>Scope</dt>');
      expect(text).toContain(operation.scope === 'public' ? 'none (public)' : operation.scope);
      expect(text).toContain('<h3>REST</h3>');
      expect(text).toContain('<h3>CLI</h3>');
      // Public operations are REST only: no MCP example.
      expect(text.includes('<h3>MCP</h3>')).toBe(operation.scope !== 'public');
      expect(text).not.toMatch(/<script/i);
    }
  });

  it('escapes the text it prints', async () => {
    const text = await (await fetch(`${t.baseUrl}/docs/get_markup_for_test`)).text();
    expect(text).not.toMatch(/<script|<img|<b>Markup/i);
    expect(text).toContain('&lt;script&gt;alert(&quot;description&quot;)&lt;/script&gt;');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('&lt;b&gt;Markup&lt;/b&gt; title');
  });

  it('answers 404 with a page for an operation the registry does not have', async () => {
    const page = await fetch(`${t.baseUrl}/docs/no_such_operation`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<a href="/docs">All operations</a>');
  });

  it('is linked from the sign-in page', async () => {
    const signIn = await (await fetch(`${t.baseUrl}/signin`)).text();
    expect(signIn).toContain('<a href="/docs">');
  });
});
