import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { recordPlacedLink } from '../../src/backlinks/knownLinks.js';
import { systemClock } from '../../src/clock.js';
import { runEntry } from '../support/processes.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';

// The CLI is its own process with its own database, so this runs on a SQLite file whatever TEST_DATABASE_URL says.
const dir = mkdtempSync(join(tmpdir(), 'sightline-backlinks-cli-'));
const file = join(dir, 'sightline.db');
const TARGET = 'https://acme.example/pricing';

let site: Awaited<ReturnType<typeof startHttpsServer>>;
let origin: string;
const requests: string[] = [];
beforeAll(async () => {
  site = await startHttpsServer((req, res) => {
    requests.push(req.url ?? '/');
    if (req.url === '/keeps') return res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="${TARGET}" rel="sponsored">Acme</a>`);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>no links here</p>');
  });
  origin = `https://127.0.0.1:${site.port}`;
});
afterAll(async () => {
  await closeServer(site.server);
  rmSync(dir, { recursive: true, force: true });
});

// The local pages are on 127.0.0.1: this process allows private targets as an operator's test setup would.
const admin = (...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], { DATABASE_URL: file, ALLOW_PRIVATE_TARGETS: '1' });

async function withFile<T>(work: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const handle = openDatabase(file);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

async function workspaceWithLinks(name: string): Promise<string> {
  const created = await admin('create-workspace', '--name', name, '--site', 'https://acme.example', '--json');
  expect(created.code, created.stderr).toBe(0);
  const { workspaceId } = JSON.parse(created.stdout) as { workspaceId: string };
  await withFile(async (db) => {
    for (const path of ['/keeps', '/dropped']) {
      await db.transaction().execute((trx) =>
        recordPlacedLink(trx, systemClock, { workspaceId, linkingUrl: `${origin}${path}`, targetUrl: TARGET, anchorText: 'Acme', dofollow: true, source: 'managed' }),
      );
    }
    // Checked already and not due for a week: the command makes it due now anyway.
    await db.updateTable('backlinks').set({ next_check_at: Date.now() + 7 * 86_400_000 }).where('workspace_id', '=', workspaceId).execute();
  });
  return workspaceId;
}

describe('cli: admin backlinks verify', () => {
  it("with --wait checks the workspace's known links now, here, and prints what it found", { timeout: 60_000 }, async () => {
    const workspaceId = await workspaceWithLinks('Acme Analytics');
    const other = await workspaceWithLinks('Other Co');
    requests.length = 0;
    const result = await admin('backlinks', 'verify', '--workspace', workspaceId, '--wait', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual({ state: 'done', links: 2, jobs: 1, failedJobs: 0, checked: 2, verified: 1, lost: 1, unreadable: 0 });
    expect(requests.sort()).toEqual(['/dropped', '/keeps']);
    await withFile(async (db) => {
      const rows = await db.selectFrom('backlinks').select(['workspace_id', 'linking_url', 'status', 'dofollow']).orderBy('linking_url').execute();
      expect(rows.filter((row) => row.workspace_id === workspaceId)).toEqual([
        { workspace_id: workspaceId, linking_url: `${origin}/dropped`, status: 'lost', dofollow: 1 },
        { workspace_id: workspaceId, linking_url: `${origin}/keeps`, status: 'verified', dofollow: 0 },
      ]);
      expect(rows.filter((row) => row.workspace_id === other).map((row) => row.status)).toEqual(['placed', 'placed']);
    });
  });

  it('without --wait leaves the checks queued for the service', { timeout: 60_000 }, async () => {
    const workspaceId = await workspaceWithLinks('Queued Co');
    requests.length = 0;
    const result = await admin('backlinks', 'verify', '--workspace', workspaceId, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'queued', links: 2, jobs: 1 });
    expect(requests).toEqual([]);
    const jobs = await withFile((db) => db.selectFrom('jobs').select(['kind', 'state']).where('workspace_id', '=', workspaceId).execute());
    expect(jobs).toEqual([{ kind: 'backlink_verify', state: 'queued' }]);
  });

  it('refuses a workspace that does not exist', { timeout: 60_000 }, async () => {
    const result = await admin('backlinks', 'verify', '--workspace', 'ws_missing', '--json');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/workspace ws_missing does not exist/);
  });
});
