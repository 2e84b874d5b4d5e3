import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBillingAddon, addBillingPayment, updateBillingAccount } from '../../src/billing/maintenance.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { OperatorError } from '../../src/operator.js';
import { PLANS } from '../../src/plans.js';
import { TestService } from '../support/harness.js';

const DAY_MS = 86_400_000;

describe('billing: get_billing and the operator upkeep behind it', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('a new workspace reads as a trial with no charges, seat usage and the plan limits', async () => {
    const ws = await t.workspace({ plan: 'starter' });
    const answer = await t.rest(ws.key, 'GET', '/api/v1/billing');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      plan: 'starter',
      status: 'trial',
      cycle: 'monthly',
      currency: 'USD',
      trialEndsAt: new Date(t.clock.now() + 14 * DAY_MS).toISOString(),
      nextCharge: null,
      addOns: [],
      recentPayments: [],
      usage: {
        seats: { used: 0, limit: 3 },
        articles: { month: '2026-11', used: 0, limit: 12 },
        trackedQueries: { used: 0, limit: 100 },
        competitors: { used: 0, limit: 5 },
        writerTokens: {
          thisWeek: { from: '2026-11-16', calls: 0, promptTokens: 0, completionTokens: 0, byPurpose: [] },
          lastWeek: { from: '2026-11-09', calls: 0, promptTokens: 0, completionTokens: 0, byPurpose: [] },
        },
      },
      limits: PLANS.starter,
    });
    const mcp = await t.mcpTool(ws.key, 'get_billing');
    expect(mcp.structuredContent).toEqual(answer.body.data);
  });

  it('reflects what the operator records: status, next charge, add-ons, the latest 10 payments newest first, seats', async () => {
    const ws = await t.workspace({ plan: 'growth' });
    await t.user(ws.workspaceId, `owner-${ws.workspaceId}@x.com`, 'owner');
    await t.rest(ws.key, 'POST', '/api/v1/team/invite', { email: 'ann@x.com', confirm: true });
    const nextChargeAt = Date.parse('2026-12-21T00:00:00.000Z');
    await updateBillingAccount(t.db, t.clock, ws.workspaceId, { status: 'active', cycle: 'yearly', nextChargeAt, nextChargeCents: 99_000 });
    const { addOnId } = await addBillingAddon(t.db, t.clock, ws.workspaceId, { name: 'Extra seats', quantity: 3, unitPriceCents: 900 });
    const paymentIds: string[] = [];
    for (let month = 0; month < 12; month++) {
      const paidAt = Date.parse(`2025-${String(month + 1).padStart(2, '0')}-15T00:00:00.000Z`);
      const status = month === 11 ? 'refunded' : 'paid';
      paymentIds.push((await addBillingPayment(t.db, t.clock, ws.workspaceId, { amountCents: 1000 + month, status, paidAt })).paymentId);
    }
    const other = await t.workspace();
    await addBillingPayment(t.db, t.clock, other.workspaceId, { amountCents: 5, status: 'paid', paidAt: Date.parse('2025-12-31T00:00:00.000Z') });

    const data = (await t.rest(ws.key, 'GET', '/api/v1/billing')).body.data as Record<string, unknown> & { recentPayments: Array<{ paymentId: string }> };
    expect(data).toMatchObject({
      plan: 'growth',
      status: 'active',
      cycle: 'yearly',
      trialEndsAt: null,
      nextCharge: { at: '2026-12-21T00:00:00.000Z', amountCents: 99_000, currency: 'USD' },
      addOns: [{ addOnId, name: 'Extra seats', quantity: 3, unitPriceCents: 900, totalCents: 2700, currency: 'USD', addedAt: new Date(t.clock.now()).toISOString() }],
      usage: { seats: { used: 2, limit: 10 }, articles: { month: '2026-11', used: 0, limit: 30 }, trackedQueries: { used: 0, limit: 300 } },
      limits: PLANS.growth,
    });
    expect(data.recentPayments.map((p) => p.paymentId)).toEqual(paymentIds.slice(2).reverse());
    expect(data.recentPayments[0]).toEqual({
      paymentId: paymentIds[11],
      amountCents: 1011,
      currency: 'USD',
      status: 'refunded',
      description: 'yearly subscription',
      paidAt: '2025-12-15T00:00:00.000Z',
    });
  });

  it('clearing the next charge and changing currency show up; payments keep their own currency', async () => {
    const ws = await t.workspace();
    await updateBillingAccount(t.db, t.clock, ws.workspaceId, { nextChargeAt: t.clock.now() + DAY_MS, nextChargeCents: 100 });
    await updateBillingAccount(t.db, t.clock, ws.workspaceId, { status: 'cancelling', currency: 'EUR', nextChargeAt: null, nextChargeCents: null });
    await addBillingPayment(t.db, t.clock, ws.workspaceId, { amountCents: 100, status: 'paid', currency: 'GBP', description: 'setup fee' });
    const data = (await t.rest(ws.key, 'GET', '/api/v1/billing')).body.data;
    expect(data).toMatchObject({
      status: 'cancelling',
      currency: 'EUR',
      nextCharge: null,
      recentPayments: [{ amountCents: 100, currency: 'GBP', description: 'setup fee', paidAt: new Date(t.clock.now()).toISOString() }],
    });
  });

  it('the operator functions refuse an unknown workspace and a half-set next charge', async () => {
    const ws = await t.workspace();
    await expect(addBillingPayment(t.db, t.clock, 'ws_nope', { amountCents: 1, status: 'paid' })).rejects.toThrow(new OperatorError('workspace ws_nope does not exist'));
    await expect(addBillingAddon(t.db, t.clock, 'ws_nope', { name: 'x', quantity: 1, unitPriceCents: 1 })).rejects.toBeInstanceOf(OperatorError);
    await expect(updateBillingAccount(t.db, t.clock, ws.workspaceId, { nextChargeCents: 100 })).rejects.toThrow(/needs both a date and an amount/);
    expect((await t.rest(ws.key, 'GET', '/api/v1/billing')).body.data).toMatchObject({ nextCharge: null });
  });

  it('counts articles scheduled in the current UTC month and every tracked query against the plan', async () => {
    const ws = await t.workspace({ plan: 'starter' });
    await t.rest(ws.key, 'POST', '/api/v1/queries', { text: 'best crm for agencies' });
    await t.rest(ws.key, 'POST', '/api/v1/queries', { text: 'crm pricing' });
    await t.rest(ws.key, 'POST', '/api/v1/content/ideas/hide', {
      queryId: ((await t.rest(ws.key, 'POST', '/api/v1/queries', { text: 'crm for dentists' })).body.data as { query: { id: string } }).query.id,
    });
    // Today is Saturday 21 November: the November slots left are 23, 25, 27 and 30, then December.
    const committed = await t.rest(ws.key, 'POST', '/api/v1/content/plan/commit', {
      titles: Array.from({ length: 6 }, (_, i) => ({ title: `Article ${i + 1}`, keyword: `keyword ${i + 1}` })),
    });
    expect(committed.status).toBe(200);
    const usage = (await t.rest(ws.key, 'GET', '/api/v1/billing')).body.data as { usage: Record<string, unknown> };
    expect(usage.usage).toMatchObject({ articles: { month: '2026-11', used: 4, limit: 12 }, trackedQueries: { used: 3, limit: 100 } });
  });

  it('books every writer call, a failed one and a job\'s too, and shows this week\'s and last week\'s tokens by purpose and model', async () => {
    const ws = await t.workspace();
    const now = t.clock.now();
    const plan = () => t.rest(ws.key, 'POST', '/api/v1/content/plan', { count: 2 });
    // Saturday 14 November, last week.
    t.clock.set(now - 7 * DAY_MS);
    try {
      expect((await plan()).status).toBe(200);
    } finally {
      t.clock.set(now);
    }
    expect((await plan()).status).toBe(200);
    // Answers that never fit the schema: the call fails after two requests, both paid for.
    t.clock.advance(1000);
    t.writer.reply({ content: 'not json' }, { content: 'not json either' });
    expect((await plan()).status).toBe(500);
    t.clock.advance(1000);
    const contentId = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'crm for dentists', title: 'How to pick a CRM', scheduledAt: now + DAY_MS, language: 'en' });
    expect((await t.rest(ws.key, 'POST', '/api/v1/content/generate', { contentId, confirm: true })).status).toBe(200);
    await t.jobs.drain();

    const job = await t.db.selectFrom('jobs').select(['state', 'prompt_tokens', 'completion_tokens']).where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();
    expect(job.state).toBe('done');
    const booked = await t.db
      .selectFrom('writer_usage')
      .select(['purpose', 'model', 'prompt_tokens', 'completion_tokens', 'recorded_at'])
      .where('workspace_id', '=', ws.workspaceId)
      .orderBy('recorded_at')
      .execute();
    expect(booked.map((row) => [row.purpose, row.model, row.recorded_at])).toEqual([
      ['plan_titles', 'fake-writer-1', now - 7 * DAY_MS],
      ['plan_titles', 'fake-writer-1', now],
      ['plan_titles', 'fake-writer-1', now + 1000],
      ['article', 'fake-writer-1', now + 2000],
    ]);
    const [lastWeek, planned, failed, article] = [booked[0]!, booked[1]!, booked[2]!, booked[3]!];
    expect(failed.prompt_tokens).toBeGreaterThan(planned.prompt_tokens);
    expect(article).toMatchObject({ prompt_tokens: job.prompt_tokens, completion_tokens: job.completion_tokens });

    const data = (await t.rest(ws.key, 'GET', '/api/v1/billing')).body.data as { usage: { writerTokens: unknown } };
    const titles = { purpose: 'plan_titles', model: 'fake-writer-1', calls: 2, promptTokens: planned.prompt_tokens + failed.prompt_tokens, completionTokens: planned.completion_tokens + failed.completion_tokens };
    const written = { purpose: 'article', model: 'fake-writer-1', calls: 1, promptTokens: job.prompt_tokens, completionTokens: job.completion_tokens };
    expect(data.usage.writerTokens).toEqual({
      thisWeek: {
        from: '2026-11-16',
        calls: 3,
        promptTokens: titles.promptTokens + written.promptTokens,
        completionTokens: titles.completionTokens + written.completionTokens,
        byPurpose: [written, titles],
      },
      lastWeek: {
        from: '2026-11-09',
        calls: 1,
        promptTokens: lastWeek.prompt_tokens,
        completionTokens: lastWeek.completion_tokens,
        byPurpose: [{ purpose: 'plan_titles', model: 'fake-writer-1', calls: 1, promptTokens: lastWeek.prompt_tokens, completionTokens: lastWeek.completion_tokens }],
      },
    });
  });

  it('requires manage:org', async () => {
    const ws = await t.workspace();
    const key = await t.key(ws.workspaceId, ['read:content', 'write:content']);
    expect((await t.rest(key, 'GET', '/api/v1/billing')).status).toBe(403);
  });
});
