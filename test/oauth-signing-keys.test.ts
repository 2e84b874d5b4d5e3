import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, KEY_SET_REFRESH_MS, rotateSigningKey } from '../src/oauth/tokens.js';
import type { TestService } from './support/harness.js';
import { twoInstancesOnOneDatabase } from './support/instances.js';
import { authorizationCodeTokens } from './support/oauthFlow.js';

/** Two instances on one database, as behind a load balancer: one public URL, so one issuer and one audience. */
const instances = twoInstancesOnOneDatabase({ secondEnv: () => ({ PUBLIC_URL: instances.first.baseUrl }) });
const { clock } = instances;

async function tokenFrom(t: TestService): Promise<string> {
  const owner = await t.signedInOwner();
  return (await authorizationCodeTokens(instances.first.baseUrl, owner.visitor, owner.workspaceId)).access_token;
}

const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
const brandWith = (t: TestService, token: string) => t.rest(token, 'GET', '/api/v1/brand');

describe('the OAuth signing keys of several instances', () => {
  it('are made once when instances need one at the same moment', async () => {
    const keys = await Promise.all([instances.first, instances.second, instances.first, instances.second].map((t) => t.service.issuer.keys.signing()));
    expect(new Set(keys.map((key) => key.kid)).size).toBe(1);
    expect(await instances.first.db.selectFrom('oauth_signing_keys').select('kid').execute()).toHaveLength(1);
  });

  it('verify on one instance a token minted by the other', async () => {
    const token = await tokenFrom(instances.first);
    expect((await brandWith(instances.second, token)).status).toBe(200);
    expect((await brandWith(instances.first, token)).status).toBe(200);
  });

  it('rotate: new tokens carry the new kid, old ones verify until the old key retires, and JWKS lists what verifies', async () => {
    const before = await tokenFrom(instances.first);
    const oldKid = kidOf(before);
    const rotated = await rotateSigningKey(instances.first.db, clock, instances.first.service.services.credentials);
    expect(rotated).toEqual({ kid: expect.stringMatching(/^sk_/), retiring: [oldKid], retireAt: clock.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 + KEY_SET_REFRESH_MS });

    // Each instance sees the rotation once its key set is refreshed; until then it signs with the old key, which still verifies.
    clock.advance(KEY_SET_REFRESH_MS);
    const after = await tokenFrom(instances.second);
    expect(kidOf(after)).toBe(rotated.kid);
    for (const t of [instances.first, instances.second]) {
      expect((await brandWith(t, before)).status).toBe(200);
      expect((await brandWith(t, after)).status).toBe(200);
    }
    const jwks = (await (await fetch(`${instances.first.baseUrl}/oauth/jwks`)).json()) as { keys: Array<{ kid: string }> };
    expect(jwks.keys.map((key) => key.kid)).toEqual([rotated.kid, oldKid]);

    // Past the old key's retirement (the old token expired long before), only the new key is listed and trusted.
    clock.set(rotated.retireAt + 1);
    const jwksLater = (await (await fetch(`${instances.second.baseUrl}/oauth/jwks`)).json()) as { keys: Array<{ kid: string }> };
    expect(jwksLater.keys.map((key) => key.kid)).toEqual([rotated.kid]);
    expect((await brandWith(instances.first, before)).status).toBe(401);
  });

  it('refuse a token whose kid no live key has', async () => {
    const token = await tokenFrom(instances.first);
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(header!, 'base64url').toString()) as Record<string, unknown>;
    const other = Buffer.from(JSON.stringify({ ...forged, kid: 'sk_unknown' })).toString('base64url');
    const answer = await brandWith(instances.second, `${other}.${payload}.${signature}`);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid or expired access token');
  });
});
