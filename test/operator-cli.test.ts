import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { runEntry } from './support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sightline-cli-'));
// A file: URL into a folder that does not exist yet: the CLI creates it.
const env = { DATABASE_URL: `file:${join(dir, 'nested', 'cli.db')}` };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const admin = (...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], env);

function json(stdout: string): Record<string, unknown> {
  // Exactly one JSON object on stdout.
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('operator commands', () => {
  it('create-workspace, create-user, create-key and revoke-key work as documented', { timeout: 60_000 }, async () => {
    const workspace = await admin('create-workspace', '--name', 'Acme', '--site', 'https://acme.example/', '--plan', 'growth', '--json');
    expect(workspace.code, workspace.stderr).toBe(0);
    const { workspaceId } = json(workspace.stdout);
    expect(workspaceId).toMatch(/^ws_/);

    const user = await admin('create-user', '--email', 'Owner@Acme.example', '--password', 'long enough pw', '--workspace', String(workspaceId), '--role', 'owner', '--json');
    expect(user.code, user.stderr).toBe(0);
    expect(json(user.stdout).userId).toMatch(/^usr_/);

    const key = await admin('create-key', '--workspace', String(workspaceId), '--scopes', 'read:content,manage:org', '--name', 'ci', '--json');
    expect(key.code, key.stderr).toBe(0);
    const created = json(key.stdout);
    expect(created.key).toMatch(/^slk_/);
    expect(created.keyId).toMatch(/^key_/);

    const handle = openDatabase(env.DATABASE_URL);
    const stored = await handle.db.selectFrom('api_keys').selectAll().where('id', '=', String(created.keyId)).executeTakeFirstOrThrow();
    const ws = await handle.db.selectFrom('workspaces').selectAll().where('id', '=', String(workspaceId)).executeTakeFirstOrThrow();
    const member = await handle.db.selectFrom('users').innerJoin('memberships', 'memberships.user_id', 'users.id').selectAll().executeTakeFirstOrThrow();
    await handle.close();
    expect(stored.key_hash).not.toContain(String(created.key));
    expect(stored.scopes).toBe('read:content manage:org');
    expect(ws).toMatchObject({ name: 'Acme', website_url: 'https://acme.example', plan: 'growth' });
    expect(member).toMatchObject({ email: 'owner@acme.example', role: 'owner' });

    const revoked = await admin('revoke-key', '--key-id', String(created.keyId));
    expect(revoked.code, revoked.stderr).toBe(0);
    const again = await admin('revoke-key', '--key-id', String(created.keyId));
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already revoked');
  });

  it('refuses bad arguments with a message and a non-zero exit', { timeout: 60_000 }, async () => {
    const badScope = await admin('create-key', '--workspace', 'ws_x', '--scopes', 'read:everything', '--json');
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('unknown scope "read:everything"');
    expect(badScope.stdout).toBe('');
    const noWorkspace = await admin('create-key', '--workspace', 'ws_missing', '--scopes', 'all', '--json');
    expect(noWorkspace.code).toBe(2);
    expect(noWorkspace.stderr).toContain('workspace ws_missing does not exist');
    const badPlan = await admin('create-workspace', '--name', 'X', '--site', 'https://x.example', '--plan', 'platinum');
    expect(badPlan.code).not.toBe(0);
    expect(badPlan.stderr).toContain('must be one of');
    const badSite = await admin('create-workspace', '--name', 'X', '--site', 'ftp://x.example', '--json');
    expect(badSite.code).toBe(2);
    expect(badSite.stderr).toContain('site: must use http or https');
  });

  it('create-user refuses an account made through an invite link until told to take it over', async () => {
    const workspace = json((await admin('create-workspace', '--name', 'Victim Co', '--site', 'https://victim.example', '--json')).stdout);
    // What accepting an invite link leaves: an account whose password the link's holder chose, never verified.
    const handle = openDatabase(env.DATABASE_URL);
    await handle.db.insertInto('users').values({ id: 'usr_planted', email: 'ceo@victim.example', password_hash: 'x', created_at: 1, verified_at: null }).execute();
    await handle.close();
    const args = ['create-user', '--email', 'ceo@victim.example', '--password', 'the real password', '--workspace', String(workspace.workspaceId), '--role', 'owner', '--json'];
    const refused = await admin(...args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Run again with --reset-unverified');
    const taken = await admin(...args, '--reset-unverified');
    expect(taken.code, taken.stderr).toBe(0);
    expect(json(taken.stdout)).toEqual({ userId: 'usr_planted', existingUser: true, reset: { sessions: 0, apiKeys: 0, appConnections: 0 } });
  });
});
