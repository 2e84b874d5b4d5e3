import { TASKS_EXTENSION_ID_V2, TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKeys } from '../../src/auth/apiKeys.js';
import { recordChanges } from '../../src/changes/record.js';
import { destinationAt, ok, writtenArticle } from '../publishing/support.js';
import { Receiver } from '../publishing/receiver.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { ListenStream, MODERN, modernRequest } from '../support/mcp2026.js';

// subscriptions/listen on /mcp: the server tells a 2026-07-28 client when the resource list or a subscribed resource
// changed, and how its tasks went, reading every change from the database; each stream hears only of its own
// workspace and credential.

const DECLARING = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };
/** Long enough for several looks at MCP_LISTEN_POLL_MS below. */
const QUIET_MS = 600;

let t: TestService;
let receiver: Receiver;
let ws: TestWorkspace;

beforeAll(async () => {
  t = await TestService.start({
    outbound: { allowPrivateAddresses: true },
    timing: { webhookTimeoutMs: 500 },
    env: { MCP_LISTEN_POLL_MS: '100' },
  });
  receiver = await Receiver.start({ clock: () => t.clock.now() });
  ws = await t.workspace();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('subscriptions/listen', () => {
  it('tells a v2 client of a new article and of a change to the brand memory it subscribed to, not of what it did not ask for', async () => {
    const client = new Client({ name: 'listening-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), { requestInit: { headers: { authorization: `Bearer ${ws.key}` } } }));
    expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true, subscribe: true }, tools: { listChanged: false }, prompts: { listChanged: false } });
    const heard: string[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => void heard.push('list'));
    client.setNotificationHandler('notifications/resources/updated', (notification) => void heard.push(`updated ${notification.params.uri}`));
    const subscription = await client.listen({ toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['sightline://brand'] });
    // The tool list never changes while connected, so that part is not honoured.
    expect(subscription.honoredFilter).toEqual({ resourcesListChanged: true, resourceSubscriptions: ['sightline://brand'] });

    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(heard).toEqual([]);
    await writtenArticle(t, ws);
    await expect.poll(() => heard, { timeout: 5000 }).toEqual(['list']);
    await ok(t, ws.key, 'POST', '/api/v1/brand', { productDescription: 'Scheduling software for dental practices.' });
    await expect.poll(() => heard, { timeout: 5000 }).toEqual(['list', 'updated sightline://brand']);

    await subscription.close();
    expect(await subscription.closed).toBe('local');
    await client.close();
  });

  it('tells a client subscribed to the recent changes of a change recorded by any instance', async () => {
    const client = new Client({ name: 'watching-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), { requestInit: { headers: { authorization: `Bearer ${ws.key}` } } }));
    const heard: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => void heard.push(notification.params.uri));
    const subscription = await client.listen({ resourceSubscriptions: ['sightline://changes'] });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(heard).toEqual([]);
    // Recorded straight in the database, as a worker on another instance would.
    await recordChanges(t.db, t.clock, ws.workspaceId, [{ kind: 'outreach.replied', dedupeKey: 'reply-1', title: 'A prospect replied', details: {} }]);
    await expect.poll(() => heard, { timeout: 5000 }).toEqual(['sightline://changes']);
    await subscription.close();
    await client.close();
  });

  it("hears nothing of another workspace's articles, nor of an article of theirs it names", async () => {
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const theirs = await writtenArticle(t, other, 'Their first article');
    const stream = await ListenStream.open(t.baseUrl, ws.key, { resourcesListChanged: true, resourceSubscriptions: [`sightline://articles/${theirs}`] });
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 2));
    await writtenArticle(t, other, 'Their second article');
    await t.db.updateTable('articles').set({ markdown: '# Their first article\n\nChanged.', updated_at: t.clock.now() + 1 }).where('id', '=', theirs).execute();
    expect(await stream.next(QUIET_MS)).toBeUndefined();
    // Its own change still comes through, first: nothing of theirs was waiting before it.
    await writtenArticle(t, ws, 'Our next article');
    expect(await stream.next()).toMatchObject({ method: 'notifications/resources/list_changed' });
    await stream.close();
  });

  it('tells a client that declared the Tasks extension how its task went, with the whole task', async () => {
    const destinationId = await destinationAt(t, ws, receiver, '/hook');
    const started = await modernRequest(t.baseUrl, ws.key, 'tools/call', { name: 'send_test_event', arguments: { destinationId } }, { capabilities: DECLARING });
    const taskId = String(started.body.result?.taskId);

    const undeclared = await ListenStream.open(t.baseUrl, ws.key, { taskIds: [taskId] });
    expect(await undeclared.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: {} } });
    // Nothing honoured: the server ends the subscription at once with its result.
    expect(await undeclared.next()).toMatchObject({ id: 'listen-1', result: { resultType: 'complete' } });

    const otherKey = await t.key(ws.workspaceId, ['read:content']);
    const stranger = await ListenStream.open(t.baseUrl, otherKey, { taskIds: [taskId] }, DECLARING);
    const stream = await ListenStream.open(t.baseUrl, ws.key, { taskIds: [taskId] }, DECLARING);
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } });
    expect(await stranger.next()).toMatchObject({ params: { notifications: { taskIds: [taskId] } } });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 2));
    await t.jobs.drain();
    // The job's progress may be told first, while the task is still working; then how it ended.
    let told = await stream.next();
    while (told?.params?.status === 'working') {
      expect(told).toMatchObject({ method: 'notifications/tasks', params: { taskId, statusMessage: expect.stringContaining('sending test') } });
      told = await stream.next();
    }
    expect(TaskStatusNotificationV2Schema.safeParse(told).success).toBe(true);
    expect(told).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'completed', result: { structuredContent: { destinationId, event: 'test' } } } });
    // Another credential's stream names the same id and hears nothing: the task is not theirs.
    expect(await stranger.next(QUIET_MS)).toBeUndefined();
    await Promise.all([stream.close(), stranger.close()]);
  });

  it('refuses a filter it cannot honour, naming the field, and requests missing their headers', async () => {
    const tooMany = await ListenStream.open(t.baseUrl, ws.key, { resourceSubscriptions: Array.from({ length: 21 }, (_, i) => `sightline://articles/a${i}`) });
    expect(tooMany.response.status).toBe(200);
    expect(await tooMany.response.json()).toMatchObject({ id: 'listen-1', error: { code: -32602, message: expect.stringContaining('params.notifications.resourceSubscriptions') } });

    const noFilter = await modernRequest(t.baseUrl, ws.key, 'subscriptions/listen', {});
    expect(noFilter.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('params.notifications') });

    const noMethodHeader = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    expect(noMethodHeader.status).toBe(400);
    expect(await noMethodHeader.json()).toMatchObject({ id: 3, error: { code: -32020 } });

    // Without an id it is a notification, not a listen request: the SDK accepts it as any other; a null id is no request.
    const notification = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    expect(notification.status).toBe(202);
    const nullId = await fetch(new URL('/mcp', t.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: null, method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    expect(nullId.status).toBe(400);
    expect(await nullId.json()).toMatchObject({ error: { code: -32600 } });

    const wrongMethodHeader = await ListenStream.open(t.baseUrl, ws.key, { resourcesListChanged: true }, {}, { 'mcp-method': 'tools/list' });
    expect(wrongMethodHeader.response.status).toBe(400);
    expect(await wrongMethodHeader.response.json()).toMatchObject({ error: { code: -32020 } });
  });

  it('ends the stream when its key is revoked', async () => {
    const key = await t.key(ws.workspaceId, ['read:content']);
    const stream = await ListenStream.open(t.baseUrl, key, { resourcesListChanged: true });
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    await revokeApiKeys(t.db, t.clock, { key });
    expect(await stream.next()).toMatchObject({ id: 'listen-1', result: { resultType: 'complete' } });
    expect(await stream.next()).toBeUndefined();
    expect(stream.ended).toBe(true);
  });

  it('ends open streams with their result when the service stops, so clients listen again elsewhere', async () => {
    const stopped = await TestService.start({ writer: false });
    const own = await stopped.workspace();
    const stream = await ListenStream.open(stopped.baseUrl, own.key, { resourcesListChanged: true });
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    const stopping = stopped.close();
    expect(await stream.next()).toMatchObject({ id: 'listen-1', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sightline' } } } });
    await stopping;
    expect(await stream.next()).toBeUndefined();
  });
});
