import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from './support/harness.js';
import { closeServer, startHttpsServer } from './support/localServers.js';
import { hiddenFields } from './support/visitor.js';

// A client that publishes its metadata on https: a local server with the test certificate.
const REDIRECT_URI = 'http://127.0.0.1:47125/callback';

let documents: Server;
let base: string;
let t: TestService;

beforeAll(async () => {
  let port: number;
  ({ server: documents, port } = await startHttpsServer((req, res) => {
    const clientId = `${base}${req.url ?? ''}`;
    const body =
      req.url === '/client.json'
        ? { client_id: clientId, client_name: 'Metadata Client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }
        : req.url === '/wrong-id.json'
          ? { client_id: `${base}/other.json`, redirect_uris: [REDIRECT_URI] }
          : req.url === '/secret.json'
            ? { client_id: clientId, redirect_uris: [REDIRECT_URI], client_secret: 'x' }
            : undefined;
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
  }));
  base = `https://127.0.0.1:${port}`;
  t = await TestService.start({ outbound: { allowPrivateAddresses: true } });
});
afterAll(async () => {
  await t.close();
  await closeServer(documents);
});

const signedIn = () => t.signedInOwner();

function authorizePath(clientId: string, challenge: string): string {
  return `/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT_URI, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 'st' }).toString()}`;
}

describe('Client ID Metadata Documents', () => {
  it('authorises a client known only by its metadata URL, through consent to tokens', async () => {
    const { visitor, workspaceId } = await signedIn();
    const clientId = `${base}/client.json`;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const page = await visitor.request(authorizePath(clientId, challenge));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Connect Metadata Client');
    const form = new URLSearchParams({ ...hiddenFields(html), decision: 'allow', workspace: workspaceId, grant: 'read:content' });
    const consent = await visitor.request('/oauth/authorize', { method: 'POST', form });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const token = await fetch(new URL('/oauth/token', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    expect((await t.rest(accessToken, 'GET', '/api/v1/brand')).status).toBe(200);
  });

  it.each([['/wrong-id.json', 'client_id is not the URL'], ['/secret.json', 'client_secret'], ['/missing.json', 'answered 404']])(
    'refuses %s on a page, without redirecting',
    async (path, reason) => {
      const { visitor } = await signedIn();
      const page = await visitor.request(authorizePath(`${base}${path}`, 'x'.repeat(43)));
      expect(page.status).toBe(400);
      expect(await page.text()).toContain(reason);
    },
  );

  it('advertises support in the authorization-server metadata', async () => {
    const metadata = (await (await fetch(new URL('/.well-known/oauth-authorization-server', t.baseUrl))).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });
});
