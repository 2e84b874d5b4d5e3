import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { resealCredentials } from '../src/credentials/reseal.js';
import { configureMailbox } from './outreach/support.js';
import { CredentialSealer } from '../src/credentials/sealed.js';
import { Receiver } from './publishing/receiver.js';
import { writtenArticle } from './publishing/support.js';
import { TestService } from './support/harness.js';
import { runEntry } from './support/processes.js';
import { snapshot } from './support/snapshot.js';
import { FakeGoogle } from './integrations/fakes/google/searchConsole.js';
import { connectSearchConsole } from './visibility/searchConsole/support.js';

const SECRETS_KEY = randomBytes(32);
const SEALED = /^sealed:v1:[0-9a-f]{8}:/;

let google: FakeGoogle;
let receiver: Receiver;
let t: TestService;

beforeAll(async () => {
  google = await FakeGoogle.start();
  t = await TestService.start({ writer: false, outbound: { allowPrivateAddresses: true }, env: { ...google.env(), SECRETS_KEY: SECRETS_KEY.toString('base64') } });
  receiver = await Receiver.start({ clock: () => t.clock.now() });
  google.sites = [{ siteUrl: 'sc-domain:acme.example', permissionLevel: 'siteOwner' }];
  google.rows.set('sc-domain:acme.example', [{ date: '2026-11-20', query: 'acme crm', page: 'https://acme.example/', clicks: 3, impressions: 40, position: 2.1 }]);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await google.close();
});

describe('with SECRETS_KEY set', () => {
  it('stores every credential sealed, so a dump of the database holds none of them, and everything still works', async () => {
    const owner = await t.signedInOwner();

    // A webhook destination: the secret is shown once, stored sealed, and still signs deliveries and names crawl reports.
    const created = await t.rest(owner.key, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: receiver.url('/hook'), siteUrl: 'https://acme.example' });
    expect(created.status).toBe(200);
    const secret = String((created.body.data as { signingSecret: string }).signingSecret);
    receiver.register('/hook', secret);
    const stored = await t.db.selectFrom('destinations').select('signing_secret').executeTakeFirstOrThrow();
    expect(stored.signing_secret).toMatch(SEALED);
    const articleId = await writtenArticle(t, owner);
    expect((await t.rest(owner.key, 'POST', '/api/v1/content/publish', { contentId: articleId, confirm: true })).status).toBe(200);
    await t.jobs.drain();
    expect(receiver.problems).toEqual([]);
    expect(receiver.at('/hook')).toHaveLength(1);
    const report = await fetch(`${t.baseUrl}/api/site/crawl`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-key': secret }, body: JSON.stringify({ user_agent: 'GPTBot/1.2', path: '/' }) });
    expect(report.status).toBe(200);

    // Search Console: the refresh token is stored sealed and opened for Google only.
    expect((await connectSearchConsole(owner.visitor, owner.workspaceId)).status).toBe(303);
    const connection = await t.db.selectFrom('search_console_connections').select('refresh_token').executeTakeFirstOrThrow();
    expect(connection.refresh_token).toMatch(SEALED);
    await t.jobs.drain();
    const refreshToken = google.tokenRequests.at(-1)!.get('refresh_token')!;
    expect(refreshToken).toMatch(/^1\/\/0g/);
    expect(await t.db.selectFrom('search_console_rows').select('query').execute()).toEqual([{ query: 'acme crm' }]);

    // The OAuth signing key: its private half is sealed; the JWKS still publishes the public half.
    const jwks = (await (await fetch(`${t.baseUrl}/oauth/jwks`)).json()) as { keys: Array<{ kid: string; d?: string }> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]!.d).toBeUndefined();
    const signingKey = await t.db.selectFrom('oauth_signing_keys').select('private_jwk').executeTakeFirstOrThrow();
    expect(signingKey.private_jwk).toMatch(SEALED);

    const dump = JSON.stringify(await snapshot(t.db));
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(refreshToken);
    expect(dump).not.toContain('"d":');
  });

  it('reseals every credential under a new key, opening the old ones with the previous key, and changes nothing when run again', async () => {
    const next = randomBytes(32);
    const rotated = new CredentialSealer(next, [SECRETS_KEY]);
    const before = await t.db.selectFrom('destinations').select('signing_secret').executeTakeFirstOrThrow();
    const mailboxWorkspace = await t.workspace();
    await configureMailbox(t.db, t.clock, t.service.services.credentials, mailboxWorkspace.workspaceId, { imapHost: 'imap.acme.example', imapPort: '993', imapPassword: 'imap-secret' });
    const counts = await resealCredentials(t.db, rotated);
    expect(counts).toEqual({
      destinations: { resealed: 1, alreadyCurrent: 0 },
      search_console_connections: { resealed: 1, alreadyCurrent: 0 },
      oauth_signing_keys: { resealed: 1, alreadyCurrent: 0 },
      site_analytics_connections: { resealed: 0, alreadyCurrent: 0 },
      ga4_authorizations: { resealed: 0, alreadyCurrent: 0 },
      'cdn_connections.access_token': { resealed: 0, alreadyCurrent: 0 },
      'cdn_connections.refresh_token': { resealed: 0, alreadyCurrent: 0 },
      'cdn_authorizations.code_verifier': { resealed: 0, alreadyCurrent: 0 },
      webflow_connections: { resealed: 0, alreadyCurrent: 0 },
      'outreach_mailboxes.smtp_password': { resealed: 1, alreadyCurrent: 0 },
      'outreach_mailboxes.imap_password': { resealed: 1, alreadyCurrent: 0 },
    });
    const after = await t.db.selectFrom('destinations').select('signing_secret').executeTakeFirstOrThrow();
    expect(rotated.isCurrent(after.signing_secret)).toBe(true);
    expect(rotated.open(after.signing_secret)).toBe(new CredentialSealer(SECRETS_KEY).open(before.signing_secret));
    expect(() => new CredentialSealer(SECRETS_KEY).open(after.signing_secret)).toThrow(/SECRETS_KEY/);
    expect(await resealCredentials(t.db, rotated)).toEqual({
      destinations: { resealed: 0, alreadyCurrent: 1 },
      search_console_connections: { resealed: 0, alreadyCurrent: 1 },
      oauth_signing_keys: { resealed: 0, alreadyCurrent: 1 },
      site_analytics_connections: { resealed: 0, alreadyCurrent: 0 },
      ga4_authorizations: { resealed: 0, alreadyCurrent: 0 },
      'cdn_connections.access_token': { resealed: 0, alreadyCurrent: 0 },
      'cdn_connections.refresh_token': { resealed: 0, alreadyCurrent: 0 },
      'cdn_authorizations.code_verifier': { resealed: 0, alreadyCurrent: 0 },
      webflow_connections: { resealed: 0, alreadyCurrent: 0 },
      'outreach_mailboxes.smtp_password': { resealed: 0, alreadyCurrent: 1 },
      'outreach_mailboxes.imap_password': { resealed: 0, alreadyCurrent: 1 },
    });
  });
});

describe('the operator commands for key material', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-keys-'));
  const databaseUrl = join(dir, 'keys.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const admin = (env: Record<string, string>, ...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args, '--json'], { DATABASE_URL: databaseUrl, ...env });
  const rawKeys = async () => {
    const handle = openDatabase(databaseUrl);
    try {
      return await handle.db.selectFrom('oauth_signing_keys').select(['kid', 'private_jwk', 'retire_at']).orderBy('created_at').execute();
    } finally {
      await handle.close();
    }
  };

  it('rotate-signing-key makes a key and retires the one before; reseal-credentials seals what was stored unencrypted', { timeout: 60_000 }, async () => {
    const made = await admin({}, 'rotate-signing-key');
    expect(made.code, made.stderr).toBe(0);
    const first = JSON.parse(made.stdout) as { kid: string; retiring: string[] };
    expect(first.retiring).toEqual([]);
    expect((await rawKeys())[0]!.private_jwk.startsWith('{')).toBe(true);

    const key = { SECRETS_KEY: randomBytes(32).toString('hex') };
    const sealed = await admin(key, 'reseal-credentials');
    expect(sealed.code, sealed.stderr).toBe(0);
    expect(JSON.parse(sealed.stdout)).toMatchObject({ sealed: true, oauth_signing_keys: { resealed: 1, alreadyCurrent: 0 } });
    expect((await rawKeys())[0]!.private_jwk).toMatch(SEALED);

    const rotated = await admin(key, 'rotate-signing-key');
    expect(rotated.code, rotated.stderr).toBe(0);
    const second = JSON.parse(rotated.stdout) as { kid: string; retiring: string[]; retireAt: string };
    expect(second.retiring).toEqual([first.kid]);
    const keys = await rawKeys();
    expect(keys.map((k) => [k.kid, k.retire_at === null])).toEqual([
      [first.kid, false],
      [second.kid, true],
    ]);
    expect(new Date(second.retireAt).getTime()).toBe(keys[0]!.retire_at);
    expect(keys.every((k) => SEALED.test(k.private_jwk))).toBe(true);

    const wrongKey = await admin({ SECRETS_KEY: 'not a key' }, 'reseal-credentials');
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toMatch(/SECRETS_KEY: must be 32 random bytes/);
  });
});
