import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSupportMessages } from '../../src/support/messages.js';
import { TestService } from '../support/harness.js';

describe('support: send_support_message', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('stores the message with the filing key, and the operator list shows it newest first', async () => {
    const ws = await t.workspace({ name: 'Acme' });
    const first = await t.rest(ws.key, 'POST', '/api/v1/support', { message: '  Publishing fails with 502.  ', subject: 'Publish', contactEmail: 'ann@x.com' });
    expect(first).toMatchObject({ status: 200, body: { data: { messageId: expect.stringMatching(/^msg_/), receivedAt: new Date(t.clock.now()).toISOString() } } });
    t.clock.advance(60_000);
    const second = await t.mcpTool(ws.key, 'send_support_message', { message: 'Never mind, it works now.', subject: '' });
    expect(second.isError).toBe(false);

    const listed = await listSupportMessages(t.db, { workspaceId: ws.workspaceId, limit: 10 });
    expect(listed).toEqual([
      {
        messageId: second.structuredContent.messageId,
        workspaceId: ws.workspaceId,
        workspaceName: 'Acme',
        apiKeyId: ws.keyId,
        subject: null,
        message: 'Never mind, it works now.',
        contactEmail: null,
        receivedAt: new Date(t.clock.now()).toISOString(),
      },
      {
        messageId: (first.body.data as { messageId: string }).messageId,
        workspaceId: ws.workspaceId,
        workspaceName: 'Acme',
        apiKeyId: ws.keyId,
        subject: 'Publish',
        message: 'Publishing fails with 502.',
        contactEmail: 'ann@x.com',
        receivedAt: new Date(t.clock.now() - 60_000).toISOString(),
      },
    ]);
    expect(await listSupportMessages(t.db, { workspaceId: ws.workspaceId, limit: 1 })).toHaveLength(1);
  });

  it('keeps workspaces apart in the list', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    await t.rest(a.key, 'POST', '/api/v1/support', { message: 'from a' });
    await t.rest(b.key, 'POST', '/api/v1/support', { message: 'from b' });
    expect((await listSupportMessages(t.db, { workspaceId: b.workspaceId, limit: 10 })).map((m) => m.message)).toEqual(['from b']);
    const all = await listSupportMessages(t.db, { limit: 100 });
    expect(all.map((m) => m.message)).toEqual(expect.arrayContaining(['from a', 'from b']));
  });

  it('rejects bad input naming each field, and stores nothing', async () => {
    const ws = await t.workspace();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/support', { message: '   ', subject: 'x'.repeat(201), contactEmail: 'nope' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('message: must not be empty; subject: must have at most 200 characters; contactEmail: must be an email address');
    const tooLong = await t.rest(ws.key, 'POST', '/api/v1/support', { message: 'x'.repeat(5001) });
    expect(tooLong.body.error).toBe('message: must have at most 5000 characters');
    expect(await listSupportMessages(t.db, { workspaceId: ws.workspaceId, limit: 10 })).toEqual([]);
  });

  it('requires write:content', async () => {
    const ws = await t.workspace();
    const key = await t.key(ws.workspaceId, ['read:content']);
    expect((await t.rest(key, 'POST', '/api/v1/support', { message: 'hi' })).status).toBe(403);
  });
});
