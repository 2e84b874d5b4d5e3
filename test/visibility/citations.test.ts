import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineName } from '../../db/schema.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { addQuery, AnswerRecorder } from './checks/support.js';

interface Check {
  checkId: string;
  model: EngineName;
  result: string;
  checkedAt: string;
}
interface Page {
  checks: Check[];
  nextBefore: string | null;
}

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function page(ws: TestWorkspace, input: Record<string, unknown> = {}): Promise<Page> {
  const answer = await t.rest(ws.key, 'GET', '/api/v1/citations', input);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Page;
}

/** Every page from the newest, following nextBefore; `between` runs after each page is read. */
async function allPages(ws: TestWorkspace, input: Record<string, unknown>, between: () => Promise<void> = async () => {}): Promise<Page[]> {
  const pages: Page[] = [];
  let before: string | undefined;
  for (;;) {
    const next = await page(ws, { ...input, ...(before === undefined ? {} : { before }) });
    pages.push(next);
    await between();
    if (next.nextBefore === null) return pages;
    before = next.nextBefore;
  }
}

/** A workspace with `count` answers, alternating chatgpt and gemini, all recorded at the same clock time. */
async function seeded(count: number) {
  const ws = await t.workspace();
  const queryId = await addQuery(t, ws, 'best crm for agencies');
  const recorder = await AnswerRecorder.start(t, ws);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const engine: EngineName = i % 2 === 0 ? 'chatgpt' : 'gemini';
    const recorded = i % 5 === 4 ? await recorder.failure(engine, queryId) : await recorder.answer(engine, queryId, `Answer ${i}: Acme Analytics.`, i % 3 === 0 ? ['https://acme.example/x'] : []);
    ids.push(recorded.answerId);
  }
  return { ws, queryId, recorder, newestFirst: ids.reverse() };
}

describe('list_citations', () => {
  it('lists checks newest first with the query, engine, model version, result and normalised citations', async () => {
    const { ws, queryId, newestFirst } = await seeded(5);
    const { checks, nextBefore } = await page(ws);
    expect(checks.map((c) => c.checkId)).toEqual(newestFirst);
    expect(nextBefore).toBeNull();
    expect(checks.at(-1)).toEqual({
      checkId: newestFirst.at(-1),
      queryId,
      queryText: 'best crm for agencies',
      model: 'chatgpt',
      modelVersion: 'chatgpt-model',
      runIndex: 1,
      cited: true,
      result: 'cited',
      errorClass: null,
      citations: [{ url: 'https://acme.example/x', domain: 'acme.example', title: null, rank: 1 }],
      checkedAt: new Date(t.clock.now()).toISOString(),
    });
    expect(checks[0]).toMatchObject({ result: 'failed', cited: false, errorClass: 'timeout', modelVersion: null, citations: [] });
    expect(checks[3]).toMatchObject({ result: 'mentioned', cited: false });
  });

  it('pages without gaps or repeats, and a full last page leads to an empty one', async () => {
    const { ws, newestFirst } = await seeded(25);
    const pages = await allPages(ws, { limit: 5 });
    expect(pages.map((p) => p.checks.length)).toEqual([5, 5, 5, 5, 5, 0]);
    expect(pages.flatMap((p) => p.checks.map((c) => c.checkId))).toEqual(newestFirst);
    for (const p of pages.slice(0, 5)) expect(p.nextBefore).toBe(p.checks.at(-1)!.checkedAt);
    expect(pages.at(-1)!.nextBefore).toBeNull();
    const uneven = await allPages(ws, { limit: 7 });
    expect(uneven.map((p) => p.checks.length)).toEqual([7, 7, 7, 4]);
    expect(uneven.flatMap((p) => p.checks.map((c) => c.checkId))).toEqual(newestFirst);
  });

  it('neither skips nor repeats a row while new checks are recorded between page reads, even with the clock behind', async () => {
    const { ws, queryId, recorder, newestFirst } = await seeded(20);
    const added: string[] = [];
    const pages = await allPages(ws, { limit: 6 }, async () => {
      t.clock.advance(-1000);
      for (let i = 0; i < 2; i++) added.push((await recorder.answer('chatgpt', queryId, 'A new answer.')).answerId);
      t.clock.advance(1000);
    });
    expect(pages.flatMap((p) => p.checks.map((c) => c.checkId))).toEqual(newestFirst);
    // The checks recorded meanwhile are newer than all of them: they lead the next first page.
    expect((await page(ws, { limit: added.length })).checks.map((c) => c.checkId)).toEqual([...added].reverse());
  });

  it('filters by engine, and pages within the filter', async () => {
    const { ws, newestFirst } = await seeded(12);
    const gemini = await allPages(ws, { model: 'gemini', limit: 4 });
    const listed = gemini.flatMap((p) => p.checks);
    expect(listed.map((c) => c.model)).toEqual(Array(6).fill('gemini'));
    expect(listed.map((c) => c.checkId)).toEqual(newestFirst.filter((_, i) => i % 2 === 0));
    expect((await page(ws, { model: 'claude' })).checks).toEqual([]);
    const bad = await t.rest(ws.key, 'GET', '/api/v1/citations', { model: 'bard' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^model: must be one of chatgpt, perplexity, gemini, claude, google_ai_overview, copilot/);
  });

  it('answers 100 by default and at most 200, and refuses a limit out of bounds', async () => {
    const { ws } = await seeded(205);
    const first = await page(ws);
    expect(first.checks).toHaveLength(100);
    expect(first.nextBefore).toBe(first.checks[99]!.checkedAt);
    expect((await page(ws, { limit: 200 })).checks).toHaveLength(200);
    for (const limit of [0, 201, 1.5]) {
      const before = await snapshot(t.db);
      const answer = await t.rest(ws.key, 'GET', '/api/v1/citations', { limit });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/^limit: /);
      expect(await snapshot(t.db)).toEqual(before);
    }
  });

  it('takes before as an ISO date-time, an ISO date or epoch milliseconds, the same on both surfaces', async () => {
    const { ws, newestFirst } = await seeded(6);
    const third = (await page(ws)).checks[2]!;
    const iso = await page(ws, { before: third.checkedAt });
    const ms = await page(ws, { before: String(Date.parse(third.checkedAt)) });
    const offset = await page(ws, { before: new Date(Date.parse(third.checkedAt)).toISOString().replace('Z', '+00:00') });
    expect(iso.checks.map((c) => c.checkId)).toEqual(newestFirst.slice(3));
    expect(ms).toEqual(iso);
    expect(offset).toEqual(iso);
    const mcp = await t.mcpTool(ws.key, 'list_citations', { before: third.checkedAt });
    expect(mcp.structuredContent).toEqual(iso);
    // A date is its UTC midnight: the checks were made at 09:00 that day.
    expect((await page(ws, { before: new Date(t.clock.now()).toISOString().slice(0, 10) })).checks).toEqual([]);
    for (const before of ['yesterday', '2026-11-21T09:00:00', '21/11/2026', '2026-13-45']) {
      const answer = await t.rest(ws.key, 'GET', '/api/v1/citations', { before });
      expect(answer.status, before).toBe(400);
      expect(answer.body.error).toMatch(/^before: must be an ISO date/);
    }
  });

  it("never lists another workspace's checks", async () => {
    await seeded(3);
    const empty = await t.workspace();
    expect(await page(empty)).toEqual({ checks: [], nextBefore: null });
  });
});
