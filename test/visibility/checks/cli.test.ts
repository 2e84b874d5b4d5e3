import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/database.js';
import { systemClock } from '../../../src/clock.js';
import { insertQuery } from '../../../src/content/queries.js';
import { runEntry } from '../../support/processes.js';
import { FakeOpenAi } from '../../integrations/fakes/openai.js';

// The CLI is its own process with its own database, so this runs on a SQLite file whatever TEST_DATABASE_URL says.
const dir = mkdtempSync(join(tmpdir(), 'sightline-checks-cli-'));
const file = join(dir, 'sightline.db');

let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await FakeOpenAi.start();
  openai.answerEvery((question) => ({ text: `For ${question}, Acme Analytics is a good choice.`, citations: [{ url: 'https://acme.example/guide' }] }));
});
afterAll(async () => {
  await openai.close();
  rmSync(dir, { recursive: true, force: true });
});

const admin = (...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], { DATABASE_URL: file, ENGINE_CHATGPT_BASE_URL: openai.baseUrl, CHECK_RUNS_PER_QUERY: '2' });

async function workspaceWithQueries(...texts: string[]): Promise<string> {
  const created = await admin('create-workspace', '--name', 'Acme Analytics', '--site', 'https://acme.example', '--json');
  expect(created.code, created.stderr).toBe(0);
  const { workspaceId } = JSON.parse(created.stdout) as { workspaceId: string };
  const handle = openDatabase(file);
  try {
    for (const text of texts) await insertQuery(handle.db, systemClock, workspaceId, { text, source: 'user' });
  } finally {
    await handle.close();
  }
  return workspaceId;
}

describe('cli: admin run-checks', () => {
  it('with --wait runs a manual check of every tracked query on the configured engines to the end and prints the summary', { timeout: 60_000 }, async () => {
    const workspaceId = await workspaceWithQueries('best crm', 'crm for agencies');
    const result = await admin('run-checks', '--workspace', workspaceId, '--wait', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual({
      runId: expect.stringMatching(/^run_/),
      state: 'done',
      planned: 4,
      completed: 4,
      failed: 0,
      engines: ['chatgpt'],
      notConfigured: ['perplexity', 'gemini', 'claude', 'google_ai_overview', 'copilot'],
      rankChecks: false,
    });
    expect(openai.requests.map((r) => r.body.input).sort()).toEqual(['best crm', 'best crm', 'crm for agencies', 'crm for agencies']);

    const handle = openDatabase(file);
    try {
      const answers = await handle.db.selectFrom('engine_answers').select(['engine', 'brand_result']).where('workspace_id', '=', workspaceId).execute();
      expect(answers).toEqual(Array(4).fill({ engine: 'chatgpt', brand_result: 'cited' }));
      const jobs = await handle.db.selectFrom('jobs').select(['kind', 'state']).where('workspace_id', '=', workspaceId).orderBy('kind').execute();
      // The checks ran here; what the closed run queues beside them (the comparison with the run before, the crawlers' reach) waits for the service.
      expect(jobs).toEqual([{ kind: 'crawler_reach', state: 'queued' }, { kind: 'detect_changes', state: 'queued' }, ...Array(4).fill({ kind: 'engine_check', state: 'done' })]);
    } finally {
      await handle.close();
    }
  });

  it('without --wait leaves the checks queued for the service and says how to follow them', { timeout: 60_000 }, async () => {
    const workspaceId = await workspaceWithQueries('crm for vets');
    const asked = openai.requests.length;
    const result = await admin('run-checks', '--workspace', workspaceId, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'running', planned: 2, completed: 0, failed: 0, engines: ['chatgpt'] });
    expect(openai.requests).toHaveLength(asked);
    const handle = openDatabase(file);
    try {
      const jobs = await handle.db.selectFrom('jobs').select(['kind', 'state']).where('workspace_id', '=', workspaceId).execute();
      expect(jobs).toEqual(Array(2).fill({ kind: 'engine_check', state: 'queued' }));
    } finally {
      await handle.close();
    }
    const text = await admin('run-checks', '--workspace', workspaceId);
    expect(text.stdout).toContain('2 checks queued; the service\'s job worker runs them (follow with `sightline jobs list --kind engine_check`');
  });

  it('with --wait prints progress lines without --json, and refuses an unknown workspace', { timeout: 60_000 }, async () => {
    const workspaceId = await workspaceWithQueries('crm for dentists');
    const result = await admin('run-checks', '--workspace', workspaceId, '--wait');
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('0/2 checks done');
    expect(lines).toContain('2/2 checks done');
    expect(lines.at(-2)).toMatch(/^check run run_\w+: 2 of 2 checks answered, 0 failed$/);
    expect(lines.at(-1)).toBe('engines: chatgpt; not configured: perplexity, gemini, claude, google_ai_overview, copilot; rank checks: no (SERP_* not set)');

    expect(await admin('run-checks', '--workspace', 'ws_missing')).toMatchObject({ code: 2, stderr: 'error: workspace ws_missing does not exist\n' });
  });
});
