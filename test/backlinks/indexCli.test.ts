import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { runEntry } from '../support/processes.js';
import { FakeDataForSeoBacklinks } from '../integrations/fakes/dataforseo/backlinks.js';

// The CLI is its own process with its own database, so this runs on a SQLite file whatever TEST_DATABASE_URL says.
const dir = mkdtempSync(join(tmpdir(), 'sightline-backlinks-cli-'));
const file = join(dir, 'sightline.db');

let fake: FakeDataForSeoBacklinks;
beforeAll(async () => {
  fake = await FakeDataForSeoBacklinks.start();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const admin = (env: Record<string, string>, ...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], { DATABASE_URL: file, ...env });

async function workspace(site: string): Promise<string> {
  const created = await admin({}, 'create-workspace', '--name', 'Acme', '--site', site, '--json');
  expect(created.code, created.stderr).toBe(0);
  return (JSON.parse(created.stdout) as { workspaceId: string }).workspaceId;
}

async function jobsOf(workspaceId: string) {
  const handle = openDatabase(file);
  try {
    return await handle.db.selectFrom('jobs').select(['id', 'kind', 'state']).where('workspace_id', '=', workspaceId).execute();
  } finally {
    await handle.close();
  }
}

describe('cli: admin backlinks sync', () => {
  it('with --wait runs the sync here and prints what it wrote', { timeout: 60_000 }, async () => {
    const workspaceId = await workspace('https://cli.example');
    fake.setBacklinks('cli.example', [{ urlFrom: 'https://z.example/a', urlTo: 'https://cli.example/', domainFromRank: 42 }]);
    fake.setSummary('cli.example', { backlinks: 7, referringDomains: 3 });
    const result = await admin(fake.env(), 'backlinks', 'sync', workspaceId, '--wait', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual({
      jobId: expect.stringMatching(/^job_/),
      queued: true,
      state: 'done',
      result: { target: 'cli.example', backlinks: 1, lost: 0, indexedBacklinks: 7, referringDomains: 3, referringDomainLists: { 'cli.example': 0 } },
    });
    const handle = openDatabase(file);
    try {
      expect(await handle.db.selectFrom('backlinks').select(['linking_url', 'domain_authority', 'authority_metric']).where('workspace_id', '=', workspaceId).execute()).toEqual([
        { linking_url: 'https://z.example/a', domain_authority: 42, authority_metric: 'dataforseo_domain_rank' },
      ]);
    } finally {
      await handle.close();
    }
  });

  it('without --wait queues it once for the service, and says how to follow it', { timeout: 60_000 }, async () => {
    const workspaceId = await workspace('https://queued.example');
    const first = await admin(fake.env(), 'backlinks', 'sync', workspaceId, '--json');
    expect(first.code, first.stderr).toBe(0);
    const queued = JSON.parse(first.stdout) as { jobId: string };
    expect(queued).toEqual({ jobId: expect.stringMatching(/^job_/), queued: true, state: 'queued', result: null });
    const again = await admin(fake.env(), 'backlinks', 'sync', workspaceId);
    expect(again.stdout).toBe(`backlink sync ${queued.jobId} already queued; the service's job worker runs it (follow with \`sightline jobs list --kind backlink_sync\`, or run again with --wait)\n`);
    expect(await jobsOf(workspaceId)).toEqual([{ id: queued.jobId, kind: 'backlink_sync', state: 'queued' }]);
  });

  it('with --wait prints progress lines, and ends with exit code 1 and the reason when the sync fails', { timeout: 60_000 }, async () => {
    const workspaceId = await workspace('https://failing.example');
    const result = await admin({ ...fake.env(), BACKLINKS_PASSWORD: 'wrong' }, 'backlinks', 'sync', workspaceId, '--wait');
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toMatch(/^backlink_sync job_\w+ (queued|running)/);
    // The worker's warning about the failed job (a pino line) shares stderr and may come after it.
    expect(result.stderr.trim().split('\n').filter((line) => line.startsWith('error: '))).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: backlink sync job_\w+ failed: DataForSEO answered 401: .*You are not authorized to access this resource/m);
  });

  it('refuses when the index is not configured, naming the settings, and an unknown workspace', { timeout: 60_000 }, async () => {
    const workspaceId = await workspace('https://bare.example');
    expect(await admin({}, 'backlinks', 'sync', workspaceId)).toMatchObject({
      code: 2,
      stderr:
        "error: the backlink index is not configured: set BACKLINKS_BASE_URL, BACKLINKS_LOGIN and BACKLINKS_PASSWORD (or the SERP provider's SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD)\n",
    });
    expect(await jobsOf(workspaceId)).toEqual([]);
    expect(await admin(fake.env(), 'backlinks', 'sync', 'ws_missing')).toMatchObject({ code: 2, stderr: 'error: workspace ws_missing does not exist\n' });
  });
});
