import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { expectBadInput, expectMcpBadInput, getBrand, write } from './support.js';

const PATH = '/api/v1/brand/reviewed';

describe('confirm_brand_reviewed', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('marks the brand reviewed once; repeating keeps the first time and changes nothing', async () => {
    const ws = await t.workspace();
    expect((await getBrand(t, ws.key)).meta).toMatchObject({ reviewed: false, reviewedAt: null });

    const firstAt = new Date(t.clock.now()).toISOString();
    const first = await t.rest(ws.key, 'POST', PATH);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ reviewed: true, reviewedAt: firstAt, alreadyReviewed: false, onboardingStep: 'confirm your brand' });
    const afterFirst = await getBrand(t, ws.key);
    expect(afterFirst.meta).toMatchObject({ reviewed: true, reviewedAt: firstAt });

    t.clock.advance(3_600_000);
    const again = await write(t, ws.key, PATH, {});
    expect(again).toEqual({ reviewed: true, reviewedAt: firstAt, alreadyReviewed: true, onboardingStep: 'confirm your brand' });
    expect(await getBrand(t, ws.key)).toEqual(afterFirst);
  });

  it('marks only the calling workspace', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    await write(t, a.key, PATH, {});
    expect((await getBrand(t, b.key)).meta.reviewed).toBe(false);
  });

  it('takes no input: any field is a 400 and nothing is marked', async () => {
    const ws = await t.workspace();
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { confirm: true }), 'confirm', 'is not a field of this operation');
    expect((await getBrand(t, ws.key)).meta.reviewed).toBe(false);
  });

  it('works the same over MCP', async () => {
    const ws = await t.workspace();
    expectMcpBadInput(await t.mcpTool(ws.key, 'confirm_brand_reviewed', { reviewed: true }), 'reviewed', 'is not a field of this operation');
    expect((await getBrand(t, ws.key)).meta.reviewed).toBe(false);
    const first = await t.mcpTool(ws.key, 'confirm_brand_reviewed');
    expect(first.structuredContent).toMatchObject({ reviewed: true, alreadyReviewed: false });
    t.clock.advance(1000);
    const again = await t.mcpTool(ws.key, 'confirm_brand_reviewed');
    expect(again.structuredContent).toMatchObject({ alreadyReviewed: true, reviewedAt: first.structuredContent.reviewedAt });
  });
});
