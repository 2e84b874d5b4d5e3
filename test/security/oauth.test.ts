import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { authorizationCode, insecure, redeemCode, REDIRECT_URI, registeredClient } from '../support/oauthFlow.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

/** The status /mcp answers a token with: 200 while it works, 401 once it does not. */
async function mcpStatus(accessToken: string): Promise<number> {
  return (await t.mcpRequest(accessToken, 'tools/list')).status;
}

async function refresh(as: oauth.AuthorizationServer, client: oauth.Client, refreshToken: string) {
  return oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure));
}

/** A signed-in owner, a registered client, and a fresh code the owner's consent issued to it. */
async function issuedCode(redirectUris?: readonly string[]) {
  const owner = await t.signedInOwner();
  const { as, client } = await registeredClient(t.baseUrl, redirectUris);
  return { as, client, owner, ...(await authorizationCode(as, client, owner.visitor, owner.workspaceId)) };
}

describe('OAuth codes and refresh tokens', () => {
  it('an authorization code redeemed a second time is refused, and the tokens it first bought stop working', async () => {
    const { as, client, params, verifier } = await issuedCode();
    const tokens = await redeemCode(as, client, params, verifier);
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    await expect(redeemCode(as, client, params, verifier)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    await expect(refresh(as, client, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a rotated-out refresh token presented again revokes the whole family: the newest refresh and access tokens stop working', async () => {
    const { as, client, params, verifier } = await issuedCode();
    const first = await redeemCode(as, client, params, verifier);
    const rotated = await refresh(as, client, first.refresh_token!);
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(await mcpStatus(rotated.access_token)).toBe(200);
    await expect(refresh(as, client, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await mcpStatus(rotated.access_token)).toBe(401);
    expect(await mcpStatus(first.access_token)).toBe(401);
    await expect(refresh(as, client, rotated.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a code redeemed without its PKCE verifier, or with another one, is refused', async () => {
    const { as, client, params, verifier } = await issuedCode();
    await expect(redeemCode(as, client, params, oauth.generateRandomCodeVerifier())).rejects.toMatchObject({ error: 'invalid_grant' });
    const withoutVerifier = await fetch(new URL('/oauth/token', t.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: params.get('code')!, client_id: client.client_id, redirect_uri: REDIRECT_URI }).toString(),
    });
    expect(withoutVerifier.status).toBe(400);
    // The refusals were about the verifier: the code itself was still good.
    expect(await mcpStatus((await redeemCode(as, client, params, verifier)).access_token)).toBe(200);
  });

  it('a code issued to one client is refused when another client redeems it', async () => {
    const { as, client, params, verifier } = await issuedCode();
    const { client: thief } = await registeredClient(t.baseUrl);
    await expect(redeemCode(as, thief, params, verifier)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await mcpStatus((await redeemCode(as, client, params, verifier)).access_token)).toBe(200);
  });

  it('a code is refused with a redirect_uri other than the one it was issued for, even one the client registered', async () => {
    const elsewhere = 'http://127.0.0.1:47124/elsewhere';
    const { as, client, params, verifier } = await issuedCode([REDIRECT_URI, elsewhere]);
    await expect(redeemCode(as, client, params, verifier, elsewhere)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await mcpStatus((await redeemCode(as, client, params, verifier)).access_token)).toBe(200);
  });
});
