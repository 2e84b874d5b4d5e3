import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import type { Visitor } from '../support/visitor.js';

/**
 * A listener on this machine's loopback, IPv4 and IPv6 on one port, that counts the connections made to it: the
 * internal service an attacker aims the literal addresses at. Were a guard missing, the request would land here.
 */
let inside: Server;
let connections = 0;
let t: TestService;
let owner: TestWorkspace & { visitor: Visitor };

beforeAll(async () => {
  inside = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  inside.listen(0, '::');
  await once(inside, 'listening');
  // Private targets are refused, as in production (ALLOW_PRIVATE_TARGETS unset).
  t = await TestService.start({ writer: false });
  owner = await t.signedInOwner();
});
afterAll(async () => {
  await t.close();
  inside.close();
});
beforeEach(() => {
  connections = 0;
});

/**
 * The literal forms of an inside address that a URL parser accepts. Those that can reach this machine carry the inside
 * listener's port (PORT, filled in when the listener is up); link-local and the cloud metadata address cannot be
 * listened on here.
 */
const INSIDE_ADDRESSES: Array<[string, string]> = [
  ['loopback over http', 'http://127.0.0.1:PORT'],
  ['loopback as one decimal number', 'https://2130706433:PORT'],
  ['loopback in hexadecimal, shortened', 'https://0x7f.1:PORT'],
  ['loopback shortened', 'https://127.1:PORT'],
  ['IPv6 loopback', 'https://[::1]:PORT'],
  ['the unspecified address, which reaches this machine', 'https://0.0.0.0:PORT'],
  ['the cloud metadata service (link-local)', 'https://169.254.169.254'],
  ['IPv6 link-local', 'https://[fe80::1]'],
  ['credentials in the URL', 'https://user:pass@localhost:PORT'],
];

const at = (form: string): string => form.replace('PORT', String((inside.address() as AddressInfo).port));

describe('URLs someone gives the service to request', () => {
  it.each(INSIDE_ADDRESSES)('a webhook destination at %s is refused when created, naming endpointUrl, and nothing is stored', async (_form, address) => {
    const base = at(address);
    const destinations = () => t.db.selectFrom('destinations').select('id').where('workspace_id', '=', owner.workspaceId).execute();
    const before = await destinations();
    const answer = await t.rest(owner.key, 'POST', '/api/v1/destinations', { name: 'Inside', endpointUrl: `${base}/hook` });
    expect(answer.status).toBe(400);
    expect(String(answer.body.error)).toMatch(/^endpointUrl: /);
    expect(await destinations()).toEqual(before);
  });

  it.each(INSIDE_ADDRESSES)('a client_id metadata document at %s is never requested: the consent page refuses it', async (_form, address) => {
    const base = at(address);
    const query = new URLSearchParams({ client_id: `${base}/client.json`, redirect_uri: 'http://127.0.0.1:47126/callback', response_type: 'code', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const answer = await owner.visitor.request(`/oauth/authorize?${query.toString()}`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(connections).toBe(0);
  });

  it.each(INSIDE_ADDRESSES)('a Plausible server at %s is never requested: nothing is connected', async (_form, address) => {
    const base = at(address);
    const settings = `/w/${owner.workspaceId}/settings`;
    const form = { _csrf: await owner.visitor.csrf(settings), siteId: 'acme.example', apiKey: 'plausible-key', baseUrl: base };
    const answer = await owner.visitor.request(`/w/${owner.workspaceId}/site-analytics/plausible`, { method: 'POST', form });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(await t.db.selectFrom('site_analytics_connections').select('workspace_id').where('workspace_id', '=', owner.workspaceId).execute()).toEqual([]);
    expect(connections).toBe(0);
  });

  it.each(INSIDE_ADDRESSES)('a self-hosted Postiz at %s is never requested when the connection is checked', async (_form, address) => {
    const base = at(address);
    const page = `/w/${owner.workspaceId}/repurpose/scheduler`;
    const csrf = await owner.visitor.csrf(page);
    await owner.visitor.request(page, { method: 'POST', form: { _csrf: csrf, tool: 'postiz', apiKey: 'postiz-key', baseUrl: `${base}/api/public/v1` } });
    const checked = await owner.visitor.request(`${page}/check`, { method: 'POST', form: { _csrf: csrf } });
    expect(checked.status).toBeGreaterThanOrEqual(400);
    expect(connections).toBe(0);
  });
});
