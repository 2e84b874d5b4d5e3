import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/define.js';
import { registry } from '../../tools/index.js';
import { extendRegistry } from '../../tools/registry.js';
import { TestService } from '../support/harness.js';
import { MODERN, modernRequest } from '../support/mcp2026.js';


// A call that takes longer than a moment, on the real clock: the notifications are sent in real time.
const slowForTest = defineTool({
  operationId: 'slow_for_test',
  method: 'GET',
  path: '/api/v1/test/slow',
  scope: 'read:content',
  cap: 'plan',
  description: 'Test-only operation: answers after the given time.',
  annotations: { title: 'Slow (test)', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ ms: z.number().int().min(0).max(5000) }),
  output: z.object({ waitedMs: z.number() }),
  confirm: 'none',
  handler: async (_ctx, input) => {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return { waitedMs: input.ms };
  },
});

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await TestService.start({ registry: extendRegistry(registry, 'test', { description: 'Operations that exist only in tests.', operations: [slowForTest] }) });
  ({ key } = await t.workspace());
});
afterAll(() => t.close());

function slowCall(ms: number, meta: Record<string, unknown>) {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, ...meta };
  return modernRequest(t.baseUrl, key, 'tools/call', { name: 'slow_for_test', arguments: { ms } }, { meta: envelope });
}

/** The JSON-RPC messages of an event stream, in order. */
function events(stream: string): Array<Record<string, unknown>> {
  return stream
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

describe('progress on calls that take more than a moment', () => {
  it('streams notifications/progress about once a second to a client that sent a progress token, then the result', async () => {
    const { contentType, text } = await slowCall(2600, { progressToken: 'slow-1' });
    expect(contentType).toContain('text/event-stream');
    const messages = events(text);
    const progress = messages.filter((message) => message.method === 'notifications/progress').map((message) => message.params);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toEqual({ progressToken: 'slow-1', progress: 1, message: 'still working (1 s)' });
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { structuredContent: { waitedMs: 2600 } } });
  });

  it('answers in plain JSON without a progress token, or when the call is quick', async () => {
    const without = await slowCall(1300, {});
    expect(without.contentType).toContain('application/json');
    const quick = await slowCall(0, { progressToken: 'quick' });
    expect(quick.contentType).toContain('application/json');
    expect(JSON.parse(quick.text)).toMatchObject({ result: { structuredContent: { waitedMs: 0 } } });
  });
});
