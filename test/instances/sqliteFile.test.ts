import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { systemClock } from '../../src/clock.js';
import { insertQuery } from '../../src/content/queries.js';
import { runEntry, spawnEntry, type RunResult } from '../support/processes.js';
import { FakeOpenAi } from '../integrations/fakes/openai.js';

/**
 * Operator commands started at the same moment, each a process of its own on one embedded SQLite file: they take
 * turns for the file instead of failing with `database is locked`. Always on SQLite, whatever TEST_DATABASE_URL says.
 */
const dir = mkdtempSync(join(tmpdir(), 'sightline-sqlite-file-'));

let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await FakeOpenAi.start();
  openai.answerEvery((question) => ({ text: `For ${question}, Acme Analytics is a good choice.`, citations: [{ url: 'https://acme.example/guide' }] }));
});
afterAll(async () => {
  await openai.close();
  rmSync(dir, { recursive: true, force: true });
});

const environment = (file: string) => ({ DATABASE_URL: file, ENGINE_CHATGPT_BASE_URL: openai.baseUrl, CHECK_RUNS_PER_QUERY: '3' });
const admin = (file: string, ...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], environment(file));

/** Whether a process has the file open, from its descriptors under /proc (Linux; elsewhere never, see below). */
function hasOpen(pid: number, file: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // not started yet, or ended
  }
}

/**
 * How long the test holds the lock after the first process opened the file: none can ask for the lock before it has
 * opened the file, so none waits past the 5-second busy timeout.
 */
const HOLD_AT_MOST_MS = 4_000;

/**
 * Starts one admin command per argument list, all at once, and has them reach their first write together: this test
 * holds the file's write lock until every process has opened the file and a second more, or HOLD_AT_MOST_MS after the
 * first did (after the start without /proc). Left to chance, processes that start together rarely write in the same
 * millisecond.
 */
async function adminTogether(file: string, commands: string[][]): Promise<RunResult[]> {
  const holder = new BetterSqlite3(file);
  try {
    holder.pragma('journal_mode = WAL');
    holder.exec('begin immediate');
    const started = commands.map((args) => spawnEntry('src/cli/main.ts', ['admin', ...args], environment(file)));
    const path = realpathSync(file);
    let release = Date.now() + HOLD_AT_MOST_MS;
    let anyOpen = false;
    while (Date.now() < release) {
      const open = started.filter(({ child }) => child.exitCode !== null || hasOpen(child.pid!, path)).length;
      if (open > 0 && !anyOpen) [anyOpen, release] = [true, Date.now() + HOLD_AT_MOST_MS];
      if (open === started.length) release = Math.min(release, Date.now() + 1_000);
      await sleep(20);
    }
    holder.exec('rollback');
    return await Promise.all(started.map(({ result }) => result));
  } finally {
    holder.close();
  }
}

async function read<T>(file: string, query: (handle: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const handle = openDatabase(file);
  try {
    return await query(handle);
  } finally {
    await handle.close();
  }
}

describe('processes on one SQLite file', () => {
  it('two `admin run-checks --wait` started together both run their checks to the end', { timeout: 90_000 }, async () => {
    const file = join(dir, 'checks.db');
    const created = await admin(file, 'create-workspace', '--name', 'Acme Analytics', '--site', 'https://acme.example', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { workspaceId } = JSON.parse(created.stdout) as { workspaceId: string };
    await read(file, async ({ db }) => {
      for (let i = 0; i < 8; i++) await insertQuery(db, systemClock, workspaceId, { text: `crm for trade ${i}`, source: 'user' });
    });

    const run = ['run-checks', '--workspace', workspaceId, '--wait', '--json'];
    const results = await adminTogether(file, [run, run]);
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ state: 'done', planned: 24, completed: 24, failed: 0 });
    }
    const runIds = results.map((result) => (JSON.parse(result.stdout) as { runId: string }).runId);
    expect(new Set(runIds).size).toBe(2);
    // Each process's worker takes whichever job is due, so the two share the work; every check is done once.
    const stored = await read(file, async ({ db }) => ({
      answers: await db.selectFrom('engine_answers').select('run_id').where('workspace_id', '=', workspaceId).execute(),
      jobs: await db.selectFrom('jobs').select(['kind', 'state']).where('workspace_id', '=', workspaceId).execute(),
    }));
    for (const runId of runIds) expect(stored.answers.filter((answer) => answer.run_id === runId)).toHaveLength(24);
    const checks = stored.jobs.filter((job) => job.kind === 'engine_check' || job.kind === 'rank_check');
    expect(checks.map((job) => job.state)).toEqual(Array(48).fill('done'));
    // What a closed run queues beside (the comparison with the run before, the crawlers' reach) waits for the service's worker.
    expect(new Set(stored.jobs.filter((job) => !checks.includes(job)).map((job) => job.kind))).toEqual(new Set(['detect_changes', 'crawler_reach']));
  });

  it('three commands started together on a new file migrate it once and all succeed', { timeout: 60_000 }, async () => {
    const file = join(dir, 'fresh.db');
    const results = await adminTogether(
      file,
      ['Acme', 'Globex', 'Initech'].map((name) => ['create-workspace', '--name', name, '--site', `https://${name.toLowerCase()}.example`, '--json']),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const names = await read(file, async ({ db }) => (await db.selectFrom('workspaces').select('name').orderBy('name').execute()).map((row) => row.name));
    expect(names).toEqual(['Acme', 'Globex', 'Initech']);
  });
});
