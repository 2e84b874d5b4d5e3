import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { ProfileStore } from '../../src/cli/profiles.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { decideDevice } from '../support/device.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import type { Visitor } from '../support/visitor.js';
import { cliHome, runCli, startCli } from './support.js';

// Every test here runs the real `sightline` binary (the package's bin entry) as its own process against a running service.
const SLOW = { timeout: 120_000 };
const EVERY_SCOPE = ['read:citations', 'read:content', 'read:leads', 'read:analytics', 'write:content', 'write:queries', 'write:publish', 'write:backlinks', 'write:social', 'manage:org'];

let t: TestService;
let owner: TestWorkspace & { email: string; visitor: Visitor };
/** A CLI home with a stored login for the owner's key, as `sightline login` leaves it. */
const home = cliHome();
beforeAll(async () => {
  t = await TestService.start();
  t.writer.answer('article', () => ({
    metaTitle: 'Dental CRM: how to choose one',
    metaDescription: 'What a dental clinic needs from a CRM.',
    markdown: '# How to pick a CRM for dentists\n\nPick one that books chairs.',
    faq: [],
    keywords: ['dental crm'],
  }));
  owner = await t.signedInOwner();
  storeLogin(home, owner.key, owner.keyId);
});

function storeLogin(at: ReturnType<typeof cliHome>, key: string, keyId: string): void {
  new ProfileStore(at.configDir).save(t.baseUrl, { key, keyId, workspaceId: owner.workspaceId, scope: EVERY_SCOPE.join(' '), savedAt: new Date().toISOString() });
}
afterAll(() => t.close());

const data = async (key: string, path: string) => {
  const answer = await t.rest(key, 'GET', path);
  expect(answer.status).toBe(200);
  return answer.body.data;
};

const asJson = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe('sightline login, whoami and the stored profile', () => {
  it('logs in through the device flow, stores the key 0600 for that server and revokes the key it replaces', SLOW, async () => {
    const home = cliHome();
    const earlier = await createApiKey(t.db, t.clock, { workspaceId: owner.workspaceId, scopes: ['read:content'], name: 'device login (sightline-cli)' });
    storeLogin(home, earlier.key, earlier.keyId);
    const login = startCli(['login', '--url', t.baseUrl, '--no-browser'], home.env);
    const [, userCode] = await login.waitFor(/enter the code ([B-Z]{4}-[B-Z]{4})/);
    expect(login.stderr()).toContain(`open ${t.baseUrl}/device `);
    await decideDevice(owner.visitor, owner, userCode!, 'approve', EVERY_SCOPE);
    const result = await login.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Logged in to ${t.baseUrl}: workspace ${owner.workspaceId}, key key_\\w+`));

    const file = join(home.configDir, 'profiles.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { current: string; servers: Record<string, { key: string; workspaceId: string }> };
    expect(stored.current).toBe(t.baseUrl);
    expect(stored.servers[t.baseUrl]).toMatchObject({ key: expect.stringMatching(/^slk_/), workspaceId: owner.workspaceId });
    expect(result.stdout).not.toContain(stored.servers[t.baseUrl]!.key);
    expect(result.stderr).toContain(`The previous key ${earlier.keyId} was revoked.`);
    expect((await t.rest(earlier.key, 'GET', '/api/v1/brand')).status).toBe(401);

    const whoami = await runCli(['whoami'], home.env);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toContain(`server:    ${t.baseUrl}`);
    expect(whoami.stdout).toContain(`workspace: ${owner.workspaceId} Acme Analytics (https://acme.example)`);
    expect(whoami.stdout).toContain('(from login)');
  });
});

describe('generated commands', () => {
  it('answer with the same data as the REST API under --json, one command per domain', SLOW, async () => {
    const competitor = await t.rest(owner.key, 'POST', '/api/v1/competitors', { name: 'Rival', websiteUrl: 'https://rival.example' });
    expect(competitor.status).toBe(200);
    const approval = await t.rest(owner.key, 'POST', '/api/v1/competitors/remove', { competitorId: (competitor.body.data as { competitor: { competitorId: string } }).competitor.competitorId });
    const approvalId = (approval.body.data as { approvalId: string }).approvalId;

    const reads: [string[], string][] = [
      [['brand', 'get'], '/api/v1/brand'],
      [['queries', 'list'], '/api/v1/queries'],
      [['content', 'get-planning-capacity'], '/api/v1/content/planning-capacity'],
      [['links', 'list-site-pages'], '/api/v1/links/pages'],
      [['publishing', 'list-destinations'], '/api/v1/destinations'],
      [['visibility', 'get-score', '--days', '7'], '/api/v1/visibility/score?days=7'],
      [['analytics', 'get-google-vs-ai'], '/api/v1/analytics/google-vs-ai'],
      [['team', 'get'], '/api/v1/team'],
      [['billing', 'get'], '/api/v1/billing'],
      [['approvals', 'get', '--approval-id', approvalId], `/api/v1/approvals?approvalId=${approvalId}`],
    ];
    const results = await Promise.all(reads.map(([args]) => runCli([...args, '--json'], home.env)));
    for (const [i, [args, path]] of reads.entries()) {
      expect(results[i]!.code, `${args.join(' ')}: ${results[i]!.stderr}`).toBe(0);
      expect(asJson(results[i]!.stdout), args.join(' ')).toEqual(await data(owner.key, path));
    }

    const added = await runCli(['queries', 'add', '--text', 'crm for dentists', '--json'], home.env);
    expect(added.code, added.stderr).toBe(0);
    expect(asJson(added.stdout)).toMatchObject({ created: true, query: { text: 'crm for dentists' } });
    const jobs = await runCli(['jobs', 'list', '--limit', '5', '--json'], home.env);
    expect(asJson(jobs.stdout)).toEqual(await data(owner.key, '/api/v1/jobs?limit=5'));
    const support = await runCli(['support', 'send-message', '--message', 'The CLI works.', '--json'], home.env);
    expect(support.code, support.stderr).toBe(0);
    expect(asJson(support.stdout)).toMatchObject({ messageId: expect.any(String) });

    // A public operation needs no key at all.
    const start = await runCli(['auth', 'device-start', '--client-id', 'script', '--url', t.baseUrl, '--json'], cliHome().env);
    expect(start.code, start.stderr).toBe(0);
    expect(asJson(start.stdout)).toMatchObject({ user_code: expect.stringMatching(/^[B-Z]{4}-[B-Z]{4}$/), interval: 5 });
  });

  it('print tables and readable summaries without --json', SLOW, async () => {
    const queries = await runCli(['queries', 'list'], home.env);
    expect(queries.code, queries.stderr).toBe(0);
    const lines = queries.stdout.split('\n');
    expect(lines[0]).toMatch(/^queries \(\d+\):$/);
    expect(lines[1]).toMatch(/^ {2}id\s+text\s+source\s+hidden/);
    expect(queries.stdout).toMatch(/qry_\w+\s+crm for dentists\s+user\s+false/);
    expect(queries.stdout).toMatch(/usage:\n {2}used: \d+\n {2}limit: \d+/);
  });

  it('dry-run without --confirm, say how to confirm, and act with it', SLOW, async () => {
    const invitesBefore = await t.db.selectFrom('team_invites').select('id').execute();
    const dry = await runCli(['team', 'invite-member', '--email', 'new.person@acme.example', '--role', 'member'], home.env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: Would invite new\.person@acme\.example as member/);
    expect(dry.stdout).toContain('Nothing changed. To do it: sightline team invite-member --email new.person@acme.example --role member --confirm');
    expect(await t.db.selectFrom('team_invites').select('id').execute()).toEqual(invitesBefore);

    const done = await runCli(['team', 'invite-member', '--email', 'new.person@acme.example', '--role', 'member', '--confirm', '--json'], home.env);
    expect(done.code, done.stderr).toBe(0);
    expect(asJson(done.stdout)).toMatchObject({ email: 'new.person@acme.example', role: 'member' });
    expect(await t.db.selectFrom('team_invites').select('id').execute()).toHaveLength(invitesBefore.length + 1);

    const member = await t.user(owner.workspaceId, 'member@acme.example', 'member');
    const refused = await runCli(['team', 'remove-member', '--user-id', member], home.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('(this command only runs with --confirm)');
  });
});

describe('exit codes', () => {
  it('2 for bad input with the service message, 3 for auth, 4 for not found', SLOW, async () => {
    const rest = await t.rest(owner.key, 'POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: '' });
    const [badInput, usage, notLoggedIn, badKey, noScope, notFound] = await Promise.all([
      runCli(['brand', 'add-guideline', '--type', 'tone', '--avoid', ''], home.env),
      runCli(['brand', 'add-guideline', '--type', 'mood'], home.env),
      runCli(['brand', 'get', '--url', t.baseUrl], cliHome().env),
      runCli(['brand', 'get', '--key', 'slk_not_a_key'], home.env),
      runCli(['team', 'get', '--key', await t.key(owner.workspaceId, ['read:content'])], home.env),
      runCli(['approvals', 'get', '--approval-id', 'apr_missing'], home.env),
    ]);
    expect(badInput).toMatchObject({ code: 2, stdout: '', stderr: `error: ${(rest.body as { error: string }).error}\n` });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("argument 'mood' is invalid");
    expect(notLoggedIn).toMatchObject({ code: 3, stderr: `error: not logged in to ${t.baseUrl}: run sightline login --url ${t.baseUrl}, or set SIGHTLINE_API_KEY\n` });
    expect(badKey.code).toBe(3);
    expect(noScope.code).toBe(3);
    expect(noScope.stderr).toContain('manage:org');
    expect(notFound).toMatchObject({ code: 4, stderr: 'error: approval apr_missing not found in this workspace\n' });
  });

  it('5 when rate limited; --wait retries after retryAfterMs', SLOW, async () => {
    // The limiter keeps real time; a fake Date moves the route's one-minute window to its last second and past it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const start = Date.now();
      const key = await t.key(owner.workspaceId, ['write:content']);
      for (let i = 0; i < 3; i++) expect((await t.rest(key, 'POST', '/api/v1/support', { message: `note ${i}` })).status).toBe(200);
      vi.setSystemTime(start + 59_000);
      const limited = await runCli(['support', 'send-message', '--message', 'one more', '--key', key], home.env);
      expect(limited.code).toBe(5);
      expect(limited.stderr).toMatch(/retry in 1\.0 s, or pass --wait to retry automatically/);

      const waiting = startCli(['support', 'send-message', '--message', 'one more', '--key', key, '--wait', '--json'], home.env);
      await waiting.waitFor(/rate limited: .*; retrying in 1\.0 s/);
      vi.setSystemTime(start + 61_000);
      const result = await waiting.done;
      expect(result.code, result.stderr).toBe(0);
      expect(asJson(result.stdout)).toMatchObject({ messageId: expect.any(String) });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('--wait on long operations', () => {
  it('follows an article being written until its job is done, showing progress', SLOW, async () => {
    const contentId = await insertPlannedArticle(t.db, t.clock, { workspaceId: owner.workspaceId, keyword: 'crm for dentists', title: 'How to pick a CRM for dentists', scheduledAt: t.clock.now() + 86_400_000, language: 'en' });
    const generate = startCli(['content', 'generate-article', '--content-id', contentId, '--confirm', '--wait', '--json'], home.env);
    await generate.waitFor(/write_article job_\w+ queued/);
    await t.jobs.drain();
    const result = await generate.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/write_article job_\w+ done/);
    expect(asJson(result.stdout)).toMatchObject({ contentId, status: 'writing', job: { kind: 'write_article', state: 'done' } });
    const article = await t.db.selectFrom('articles').select('status').where('id', '=', contentId).executeTakeFirstOrThrow();
    expect(article.status).toBe('draft');
  });

  it('without --wait says how to follow the job', SLOW, async () => {
    const contentId = await insertPlannedArticle(t.db, t.clock, { workspaceId: owner.workspaceId, keyword: 'crm for vets', title: 'A CRM for vets', scheduledAt: t.clock.now() + 86_400_000, language: 'en' });
    const result = await runCli(['content', 'generate-article', '--content-id', contentId, '--confirm'], home.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^contentId: /);
    const { jobId } = (await t.db.selectFrom('articles').select('writing_job_id as jobId').where('id', '=', contentId).executeTakeFirstOrThrow()) as { jobId: string };
    expect(result.stdout).toContain(`Runs in the background: follow it with \`sightline jobs get --job-id ${jobId}\`, or repeat with --wait.`);
    await t.jobs.drain();
  });

  it("follows a change waiting for the owner's approval until it has run", SLOW, async () => {
    const added = await t.rest(owner.key, 'POST', '/api/v1/competitors', { name: 'Other Rival', websiteUrl: 'https://other-rival.example' });
    const competitorId = (added.body.data as { competitor: { competitorId: string } }).competitor.competitorId;
    const remove = startCli(['visibility', 'remove-competitor', '--competitor-id', competitorId, '--wait'], home.env);
    const [, approvalId] = await remove.waitFor(/approval (apr_\w+): pending/);
    const ownerId = (await t.db.selectFrom('users').select('id').where('email', '=', owner.email).executeTakeFirstOrThrow()).id;
    await t.service.pipeline.decideApproval({ workspaceId: owner.workspaceId, approvalId: approvalId!, userId: ownerId, choice: 'approve' });
    const result = await remove.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`approval ${approvalId}: done`);
    const competitor = await t.db.selectFrom('competitors').select('removed_at').where('id', '=', competitorId).executeTakeFirstOrThrow();
    expect(competitor.removed_at).not.toBeNull();
  });
});

describe('environment overrides and logout', () => {
  it('SIGHTLINE_URL and SIGHTLINE_API_KEY work without a login', SLOW, async () => {
    const env = { ...cliHome().env, SIGHTLINE_URL: t.baseUrl, SIGHTLINE_API_KEY: owner.key };
    const result = await runCli(['brand', 'get', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(asJson(result.stdout)).toEqual(await data(owner.key, '/api/v1/brand'));
  });

  it('logout revokes the stored key on the server and forgets the profile', SLOW, async () => {
    const home = cliHome();
    const { key, keyId } = await createApiKey(t.db, t.clock, { workspaceId: owner.workspaceId, scopes: ['read:content'], name: 'device login (sightline-cli)' });
    storeLogin(home, key, keyId);
    const result = await runCli(['logout'], home.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Logged out of ${t.baseUrl}: the key was revoked`);
    expect((await t.rest(key, 'GET', '/api/v1/brand')).status).toBe(401);
    expect(readFileSync(join(home.configDir, 'profiles.json'), 'utf8')).not.toContain(key);
    expect(await runCli(['whoami', '--url', t.baseUrl], home.env)).toMatchObject({ code: 3 });
  });
});
