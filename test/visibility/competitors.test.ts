import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/scopes.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { hiddenFields } from '../support/visitor.js';
import { FakeDataForSeo } from '../integrations/fakes/dataforseo/serp.js';
import { MIN_SHARED_ANSWERS, queuePositioning } from '../../src/visibility/competitors/positioning.js';
import { addCompetitor, addQuery, AnswerRecorder } from './checks/support.js';

const DAY_MS = 86_400_000;

let t: TestService;
let dfs: FakeDataForSeo;
let withSerp: TestService;
beforeAll(async () => {
  t = await TestService.start();
  dfs = await FakeDataForSeo.start();
  withSerp = await TestService.start({ env: dfs.env() });
});
afterAll(async () => {
  await t.close();
  await withSerp.close();
  await dfs.close();
});

async function competitors(service: TestService, ws: TestWorkspace) {
  const answer = await service.rest(ws.key, 'GET', '/api/v1/competitors');
  expect(answer.status).toBe(200);
  return answer.body.data as { competitors: Array<Record<string, unknown>>; brand: Record<string, unknown>; usage: { used: number; limit: number }; window: unknown };
}

const EMPTY_RATE = { rate: null, interval: null, count: 0, of: 0 };

describe('add_competitor', () => {
  it('tracks a competitor by name and website; get_competitors lists it with empty numbers until checks come in', async () => {
    const ws = await t.workspace();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: ' Rival ', websiteUrl: 'https://www.rival.example/?ref=ad', aliases: ['RivalCRM'] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const competitor = {
      competitorId: expect.stringMatching(/^cmp_/),
      name: 'Rival',
      websiteUrl: 'https://www.rival.example',
      aliases: ['RivalCRM'],
      aiVisibilityScore: null,
      mentionRate: EMPTY_RATE,
      citations: { cited: 0, mentioned: 0, checks: 0, failed: 0 },
      domainMetrics: { domain: 'rival.example', citedInAnswers: 0, answersWithCitations: 0, citationRate: EMPTY_RATE },
      positioning: {
        status: 'pending',
        summary: null,
        note: 'made when the next check run finishes',
        sharedAnswers: null,
        minimumAnswers: 3,
        sampleSize: 0,
        answers: [],
        model: null,
        madeAt: null,
      },
      createdAt: new Date(t.clock.now()).toISOString(),
    };
    expect(answer.body.data).toEqual({ competitor, websiteFound: false, usage: { used: 1, limit: 10 } });
    expect(await competitors(t, ws)).toEqual({
      window: { days: 30, from: '2026-10-23', to: '2026-11-21' },
      brand: expect.objectContaining({ name: 'Acme Analytics', websiteUrl: 'https://acme.example', aiVisibilityScore: null }),
      competitors: [competitor],
      usage: { used: 1, limit: 10 },
    });
  });

  it('tracks at most 10 (fewer when the plan says so), and refuses the 11th changing nothing', async () => {
    const ws = await t.workspace({ plan: 'scale' });
    for (let i = 1; i <= 10; i++) await addCompetitor(t, ws, `Rival ${i}`, `https://rival${i}.example`);
    // Another key: the route allows a key 10 calls a minute.
    const key = await t.key(ws.workspaceId, ALL_SCOPES);
    const before = await snapshot(t.db);
    const refused = await t.rest(key, 'POST', '/api/v1/competitors', { name: 'Rival 11', websiteUrl: 'https://rival11.example' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^name: at most 10 competitors are tracked/);
    expect(await snapshot(t.db)).toEqual(before);

    const trial = await t.workspace({ plan: 'trial' });
    for (let i = 1; i <= 3; i++) await addCompetitor(t, trial, `Rival ${i}`, `https://rival${i}.example`);
    const overPlan = await t.rest(trial.key, 'POST', '/api/v1/competitors', { name: 'Rival 4', websiteUrl: 'https://rival4.example' });
    expect(overPlan.status).toBe(400);
    expect(overPlan.body.error).toMatch(/^name: at most 3 competitors are tracked in this workspace/);
    const billing = await t.rest(trial.key, 'GET', '/api/v1/billing');
    expect((billing.body.data as { usage: { competitors: unknown } }).usage.competitors).toEqual({ used: 3, limit: 3 });
  });

  it('refuses a domain already tracked (www. and subdomains alike) and the workspace own site', async () => {
    const ws = await t.workspace();
    await addCompetitor(t, ws, 'Rival', 'https://rival.example');
    for (const websiteUrl of ['https://www.rival.example', 'http://blog.rival.example/pricing']) {
      const answer = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Rival again', websiteUrl });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('websiteUrl: rival.example is already tracked as the competitor "Rival"');
    }
    const own = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Us', websiteUrl: 'https://shop.acme.example' });
    expect(own).toMatchObject({ status: 400, body: { error: "websiteUrl: acme.example is this workspace's own site, not a competitor's" } });
    const notHttp = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Ftp', websiteUrl: 'ftp://files.example' });
    expect(notHttp.status).toBe(400);
    expect(notHttp.body.error).toMatch(/^websiteUrl: /);
    const credentials = await t.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Secret', websiteUrl: 'https://user:pw@secret.example' });
    expect(credentials).toMatchObject({ status: 400, body: { error: 'websiteUrl: must not contain a user name or password' } });
  });

  it('finds the website from the name through the SERP provider, skipping profiles on other sites', async () => {
    const ws = await withSerp.workspace();
    dfs.serp('google', 'Rival Corp', { organic: [{ url: 'https://www.linkedin.com/company/rival-corp' }, { url: 'https://www.rivalcorp.example/about' }] });
    const answer = await withSerp.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Rival Corp' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ competitor: { name: 'Rival Corp', websiteUrl: 'https://www.rivalcorp.example', domainMetrics: { domain: 'rivalcorp.example' } }, websiteFound: true });
  });

  it('answers 400 naming name when no website is found, and naming websiteUrl and SERP_* without a SERP provider', async () => {
    const ws = await withSerp.workspace();
    dfs.serp('google', 'Nobody Inc', { organic: [{ url: 'https://en.wikipedia.org/wiki/Nobody' }] });
    const before = await snapshot(withSerp.db);
    const none = await withSerp.rest(ws.key, 'POST', '/api/v1/competitors', { name: 'Nobody Inc' });
    expect(none).toMatchObject({ status: 400, body: { error: 'name: no website was found for "Nobody Inc"; check the name or send websiteUrl' } });
    expect(await snapshot(withSerp.db)).toEqual(before);

    const plain = await t.workspace();
    const unconfigured = await t.rest(plain.key, 'POST', '/api/v1/competitors', { name: 'Rival' });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.error).toBe(
      'websiteUrl: is required: no SERP provider is configured to find the website from the name (the operator sets SERP_BASE_URL, SERP_LOGIN and SERP_PASSWORD)',
    );
  });
});

describe('get_competitors', () => {
  it('counts the last 30 UTC days of answers for each competitor and the brand', async () => {
    const ws = await t.workspace();
    const rival = await addCompetitor(t, ws, 'Rival', 'https://rival.example');
    const queryId = await addQuery(t, ws, 'best crm');
    const recorder = await AnswerRecorder.start(t, ws);
    const now = t.clock.now();
    // Out of the window: 30 days ago is the day before its first day.
    t.clock.set(now - 30 * DAY_MS);
    await recorder.answer('chatgpt', queryId, 'Rival and Acme Analytics.', ['https://rival.example/']);
    t.clock.set(now - 29 * DAY_MS);
    await recorder.answer('chatgpt', queryId, 'Rival is best.', ['https://docs.rival.example/a', 'https://news.example/']);
    t.clock.set(now);
    await recorder.answer('gemini', queryId, 'Acme Analytics and Rival.', ['https://acme.example/']);
    await recorder.answer('gemini', queryId, 'Nobody here.', []);
    await recorder.failure('chatgpt', queryId);

    const listed = await competitors(t, ws);
    expect(listed.competitors).toEqual([
      expect.objectContaining({
        competitorId: rival,
        aiVisibilityScore: 66.7,
        mentionRate: { rate: 0.6667, interval: expect.objectContaining({ low: expect.any(Number), high: expect.any(Number) }), count: 2, of: 3 },
        citations: { cited: 1, mentioned: 1, checks: 3, failed: 1 },
        domainMetrics: { domain: 'rival.example', citedInAnswers: 1, answersWithCitations: 2, citationRate: expect.objectContaining({ rate: 0.5, count: 1, of: 2 }) },
      }),
    ]);
    expect(listed.brand).toMatchObject({ aiVisibilityScore: 33.3, citations: { cited: 1, mentioned: 0, checks: 3, failed: 1 }, domainMetrics: { domain: 'acme.example', citedInAnswers: 1 } });
  });
});

describe('positioning', () => {
  type Positioning = { status: string; summary: string | null; note: string | null; answers: Array<{ answerId: string; engine: string; checkedAt: string }> } & Record<string, unknown>;
  const SUMMARY = 'Answers name Rival the cheaper pick and Acme Analytics the one for agencies.';

  async function positioning(service: TestService, ws: TestWorkspace): Promise<Positioning> {
    return (await competitors(service, ws)).competitors[0]!.positioning as Positioning;
  }

  function jobsOf(service: TestService, ws: TestWorkspace) {
    return service.db.selectFrom('jobs').select(['kind', 'state', 'subject_id', 'error', 'prompt_tokens']).where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'competitor_positioning').execute();
  }

  function ledger(service: TestService, ws: TestWorkspace) {
    return service.db.selectFrom('writer_usage').select(['purpose', 'model', 'prompt_tokens', 'completion_tokens']).where('workspace_id', '=', ws.workspaceId).execute();
  }

  /** A workspace tracking Rival, and a run of `texts.length` checks that closes with its last answer. */
  async function closedRun(service: TestService, texts: string[], engines = ['chatgpt', 'gemini', 'perplexity'] as const) {
    const ws = await service.workspace();
    await addCompetitor(service, ws, 'Rival', 'https://rival.example');
    const queryId = await addQuery(service, ws, 'best crm for agencies');
    const recorder = await AnswerRecorder.start(service, ws, texts.length);
    const recorded = [];
    for (const [i, text] of texts.entries()) recorded.push(await recorder.answer(engines[i % engines.length]!, queryId, text));
    return { ws, queryId, runId: recorder.runId, recorded };
  }

  it('is queued when a check run finishes, and summarises the answers naming both, linking them', async () => {
    const { ws, runId, recorded } = await closedRun(t, [
      'Acme Analytics suits agencies. Rival is cheaper.',
      'Rival is the budget choice; Acme Analytics is built for agencies.',
      'Only Rival is worth a look here.',
      'For agencies, Acme Analytics beats Rival on reporting.',
    ]);
    expect(await jobsOf(t, ws)).toEqual([{ kind: 'competitor_positioning', state: 'queued', subject_id: runId, error: null, prompt_tokens: 0 }]);
    t.writer.answer('competitor_positioning', () => ({ summary: SUMMARY }));
    const asked = t.writer.requests.length;
    await t.jobs.drain();

    expect(t.writer.requests.length).toBe(asked + 1);
    const prompt = t.writer.lastPrompt();
    expect(prompt).toContain('Brand: Acme Analytics');
    expect(prompt).toContain('Competitor: Rival');
    expect(prompt).toContain('Rival is the budget choice; Acme Analytics is built for agencies.');
    expect(prompt).not.toContain('Only Rival is worth a look');
    const both = [recorded[3]!, recorded[1]!, recorded[0]!];
    expect(await positioning(t, ws)).toEqual({
      status: 'summarised',
      summary: SUMMARY,
      note: null,
      sharedAnswers: 3,
      minimumAnswers: 3,
      sampleSize: 3,
      answers: both.map((a, i) => ({ answerId: a.answerId, engine: ['chatgpt', 'gemini', 'chatgpt'][i], checkedAt: new Date(a.checkedAt).toISOString() })),
      model: 'fake-writer-1',
      madeAt: new Date(t.clock.now()).toISOString(),
    });
    const [job] = await jobsOf(t, ws);
    expect(job).toMatchObject({ state: 'done', error: null });
    expect(job!.prompt_tokens).toBeGreaterThan(0);
    expect(await ledger(t, ws)).toEqual([{ purpose: 'positioning', model: 'fake-writer-1', prompt_tokens: job!.prompt_tokens, completion_tokens: expect.any(Number) }]);

    // Run again over the same answers: nothing is asked of the writer, nothing changes.
    await t.db.transaction().execute((trx) => queuePositioning(trx, t.clock, ws.workspaceId, runId));
    await t.jobs.drain();
    expect(t.writer.requests.length).toBe(asked + 1);
    expect((await positioning(t, ws)).summary).toBe(SUMMARY);
  });

  it('says "not enough answers yet" with the count and the minimum, and asks the writer nothing', async () => {
    const { ws } = await closedRun(t, ['Acme Analytics or Rival.', 'Rival, then Acme Analytics.', 'Nobody we track.']);
    const asked = t.writer.requests.length;
    await t.jobs.drain();
    expect(t.writer.requests.length).toBe(asked);
    expect(await positioning(t, ws)).toEqual({
      status: 'not_enough_answers',
      summary: null,
      note: `not enough answers yet: 2 of the last 30 days name both the brand and this competitor; ${MIN_SHARED_ANSWERS} are needed`,
      sharedAnswers: 2,
      minimumAnswers: MIN_SHARED_ANSWERS,
      sampleSize: 0,
      answers: [],
      model: null,
      madeAt: new Date(t.clock.now()).toISOString(),
    });
    expect(await ledger(t, ws)).toEqual([]);
  });

  it('keeps the previous positioning when the writer fails, and books the tokens of the failed call', async () => {
    const { ws, queryId } = await closedRun(t, ['Acme Analytics or Rival.', 'Rival, then Acme Analytics.', 'Acme Analytics beats Rival.']);
    t.writer.answer('competitor_positioning', () => ({ summary: SUMMARY }));
    await t.jobs.drain();
    const before = await positioning(t, ws);
    expect(before).toMatchObject({ status: 'summarised', summary: SUMMARY, sampleSize: 3 });

    t.clock.advance(60_000);
    const next = await AnswerRecorder.start(t, ws, 1);
    await next.answer('claude', queryId, 'Rival for small teams, Acme Analytics for agencies.');
    t.writer.reply({ content: 'not json' }, { content: 'still not json' });
    await t.jobs.drain();

    expect(await positioning(t, ws)).toEqual(before);
    const jobs = await jobsOf(t, ws);
    expect(jobs.map((j) => j.state).sort()).toEqual(['done', 'failed']);
    expect(jobs.find((j) => j.state === 'failed')!.error).toBe('the writer model failed to summarise the positioning of Rival; the previous positioning is kept');
    const booked = await ledger(t, ws);
    expect(booked).toHaveLength(2);
    expect(booked.every((row) => row.purpose === 'positioning' && row.prompt_tokens > 0)).toBe(true);
  });

  it('without a writer, the job records nothing and positioning says the writer is not configured', async () => {
    const plain = await TestService.start({ writer: false });
    try {
      const { ws } = await closedRun(plain, ['Acme Analytics or Rival.', 'Rival, then Acme Analytics.', 'Acme Analytics beats Rival.']);
      const stored = () => plain.db.selectFrom('competitors').select('positioning').where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();
      await plain.jobs.drain();
      expect(await stored()).toEqual({ positioning: null });
      expect((await jobsOf(plain, ws)).map((j) => j.state)).toEqual(['done']);
      expect(await positioning(plain, ws)).toMatchObject({
        status: 'writer_not_configured',
        summary: null,
        note: 'no writer model is configured to summarise answers: the operator sets WRITER_BASE_URL and WRITER_MODEL (and WRITER_API_KEY when the server needs one)',
        sharedAnswers: null,
        answers: [],
      });
    } finally {
      await plain.close();
    }
  });
});

describe('remove_competitor', () => {
  it('waits for the owner: pending, approved in the dashboard, then no longer listed or checked, past answers kept', async () => {
    const owner = await t.signedInOwner();
    const rival = await addCompetitor(t, owner, 'Rival', 'https://rival.example');
    const queryId = await addQuery(t, owner, 'crm for agencies');
    const recorder = await AnswerRecorder.start(t, owner);
    const past = await recorder.answer('chatgpt', queryId, 'Rival leads.');

    const requested = await t.rest(owner.key, 'POST', '/api/v1/competitors/remove', { competitorId: rival });
    expect(requested.status).toBe(200);
    const approval = requested.body.data as { approval_required: boolean; approvalId: string; approvalUrl: string; summary: string };
    expect(approval).toMatchObject({
      approval_required: true,
      approvalId: expect.stringMatching(/^apr_/),
      summary: 'Remove competitor Rival (rival.example) from tracking? It is no longer checked or listed; answers already recorded keep their data.',
    });
    expect((await competitors(t, owner)).competitors).toHaveLength(1);

    // The owner opens the approval link and approves.
    const page = await owner.visitor.request(new URL(approval.approvalUrl).pathname);
    const location = page.headers.get('location')!;
    const fields = hiddenFields(await (await owner.visitor.request(location)).text());
    const decided = await owner.visitor.request(`${location}/decide`, { method: 'POST', form: { ...fields, decision: 'approve' } });
    expect(decided.status).toBe(303);

    const state = await t.rest(owner.key, 'GET', '/api/v1/approvals', { approvalId: approval.approvalId });
    expect(state.body.data).toMatchObject({ state: 'done', result: { competitorId: rival, name: 'Rival', removed: true, removedAt: expect.any(String) } });
    expect(await competitors(t, owner)).toMatchObject({ competitors: [], usage: { used: 0 } });
    const later = await recorder.answer('chatgpt', queryId, 'Rival leads.');
    const mentions = await t.db.selectFrom('answer_mentions').select(['answer_id', 'subject_id', 'result']).where('workspace_id', '=', owner.workspaceId).orderBy('subject_id').execute();
    expect(mentions.filter((m) => m.answer_id === past.answerId).map((m) => [m.subject_id, m.result])).toEqual([
      ['brand', 'none'],
      [rival, 'mentioned'],
    ]);
    expect(mentions.filter((m) => m.answer_id === later.answerId).map((m) => m.subject_id)).toEqual(['brand']);

    // Gone: a new removal request is a 404, and the domain may be tracked again.
    expect((await t.rest(owner.key, 'POST', '/api/v1/competitors/remove', { competitorId: rival })).status).toBe(404);
    expect((await t.rest(owner.key, 'POST', '/api/v1/competitors', { name: 'Rival', websiteUrl: 'https://rival.example' })).status).toBe(200);
  });

  it("answers 404 for another workspace's competitor, recording no approval", async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const foreign = await addCompetitor(t, other, 'Rival', 'https://rival.example');
    const answer = await t.rest(ws.key, 'POST', '/api/v1/competitors/remove', { competitorId: foreign });
    expect(answer).toMatchObject({ status: 404, body: { error: `competitor ${foreign} not found in this workspace` } });
    expect(await t.db.selectFrom('approvals').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
  });
});
