import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { chars, expectBadInput, expectMcpBadInput, getBrand, write } from './support.js';

const ADD = '/api/v1/brand/guidelines';
const ACTIVE = '/api/v1/brand/guidelines/active';
const REMOVE = '/api/v1/brand/guidelines/remove';

describe('brand guidelines', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  async function addGuideline(ws: TestWorkspace, body: Record<string, unknown> = { type: 'terminology', avoid: 'cheap', instead: 'affordable' }): Promise<string> {
    const data = await write(t, ws.key, ADD, body);
    return data.guidelineId as string;
  }

  describe('add_brand_guideline', () => {
    it('adds a guideline that starts switched on, trimmed, and shows it in get_brand', async () => {
      const ws = await t.workspace();
      const data = await write(t, ws.key, ADD, { type: 'tone', avoid: '  exclamation marks ', instead: 'calm statements' });
      expect(data.guidelineId).toMatch(/^gl_[0-9a-f]{24}$/);
      const { guidelines } = await getBrand(t, ws.key);
      expect(guidelines).toEqual([
        { guidelineId: data.guidelineId, type: 'tone', avoid: 'exclamation marks', instead: 'calm statements', on: true, createdAt: new Date(t.clock.now()).toISOString() },
      ]);
      expect(data.guideline).toEqual(guidelines[0]);
    });

    it('accepts 300 characters in avoid and instead', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, ADD, { type: 'style', avoid: chars(300, 'a'), instead: chars(300, 'b') });
      const [guideline] = (await getBrand(t, ws.key)).guidelines;
      expect(guideline).toMatchObject({ avoid: chars(300, 'a'), instead: chars(300, 'b') });
    });

    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['a 301-character avoid', { avoid: chars(301) }, 'avoid', 'must have at most 300 characters'],
      ['a 301-character instead', { instead: chars(301) }, 'instead', 'must have at most 300 characters'],
      ['a blank avoid', { avoid: '   ' }, 'avoid', 'must not be empty'],
      ['an empty instead', { instead: '' }, 'instead', 'must not be empty'],
      ['a missing avoid', { avoid: undefined }, 'avoid', 'is required'],
      // A missing enum comes out of zod as an invalid value, so the rule lists the choices rather than saying "is required".
      ['a missing type', { type: undefined }, 'type', 'is required'],
      ['a type not on the list', { type: 'voice' }, 'type', 'must be one of tone, terminology, topic, style, factual'],
      ['an unknown field', { on: false }, 'on', 'is not a field of this operation'],
    ];

    it.each(cases)('refuses %s with a 400 naming the field and adds nothing', async (_name, bad, field, rule) => {
      const ws = await t.workspace();
      await addGuideline(ws);
      const before = await getBrand(t, ws.key);
      expectBadInput(await t.rest(ws.key, 'POST', ADD, { type: 'factual', avoid: 'made-up numbers', instead: 'sourced figures', ...bad }), field, rule);
      expect(await getBrand(t, ws.key)).toEqual(before);
    });
  });

  describe('set_brand_guideline_active', () => {
    it('switches a guideline off and on again', async () => {
      const ws = await t.workspace();
      const guidelineId = await addGuideline(ws);
      const off = await write(t, ws.key, ACTIVE, { guidelineId, on: false });
      expect(off.guidelineId).toBe(guidelineId);
      expect((await getBrand(t, ws.key)).guidelines).toEqual([off.guideline]);
      expect(off.guideline).toMatchObject({ on: false, avoid: 'cheap', instead: 'affordable' });
      await write(t, ws.key, ACTIVE, { guidelineId, on: true });
      expect((await getBrand(t, ws.key)).guidelines[0]?.on).toBe(true);
    });

    it('switches only the guideline named', async () => {
      const ws = await t.workspace();
      const first = await addGuideline(ws);
      // get_brand lists guidelines oldest first; a later clock makes that order certain.
      t.clock.advance(1000);
      const second = await addGuideline(ws, { type: 'topic', avoid: 'politics', instead: 'product news' });
      await write(t, ws.key, ACTIVE, { guidelineId: second, on: false });
      const { guidelines } = await getBrand(t, ws.key);
      expect(guidelines.map((g) => [g.guidelineId, g.on])).toEqual([
        [first, true],
        [second, false],
      ]);
    });

    it('refuses a missing or non-boolean on with a 400 and changes nothing', async () => {
      const ws = await t.workspace();
      const guidelineId = await addGuideline(ws);
      expectBadInput(await t.rest(ws.key, 'POST', ACTIVE, { guidelineId }), 'on', 'is required');
      expectBadInput(await t.rest(ws.key, 'POST', ACTIVE, { guidelineId, on: 'false' }), 'on', 'must be true or false');
      expectBadInput(await t.rest(ws.key, 'POST', ACTIVE, { on: false }), 'guidelineId', 'is required');
      expect((await getBrand(t, ws.key)).guidelines[0]?.on).toBe(true);
    });

    it('answers 404 for an unknown id', async () => {
      const ws = await t.workspace();
      const answer = await t.rest(ws.key, 'POST', ACTIVE, { guidelineId: 'gl_000000000000000000000000', on: false });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('guideline gl_000000000000000000000000 not found in this workspace');
    });
  });

  describe('remove_brand_guideline', () => {
    it('deletes the guideline permanently', async () => {
      const ws = await t.workspace();
      const keep = await addGuideline(ws);
      const guidelineId = await addGuideline(ws, { type: 'factual', avoid: 'guesses', instead: 'facts' });
      expect(await write(t, ws.key, REMOVE, { guidelineId })).toEqual({ guidelineId, removed: true });
      expect((await getBrand(t, ws.key)).guidelines.map((g) => g.guidelineId)).toEqual([keep]);
      expect((await t.rest(ws.key, 'POST', REMOVE, { guidelineId })).status).toBe(404);
      expect((await t.rest(ws.key, 'POST', ACTIVE, { guidelineId, on: true })).status).toBe(404);
    });

    it('refuses a missing id with a 400', async () => {
      const ws = await t.workspace();
      await addGuideline(ws);
      expectBadInput(await t.rest(ws.key, 'POST', REMOVE, {}), 'guidelineId', 'is required');
      expect((await getBrand(t, ws.key)).guidelines).toHaveLength(1);
    });
  });

  it("answers 404 for another workspace's guideline and leaves it untouched", async () => {
    const owner = await t.workspace();
    const other = await t.workspace();
    const guidelineId = await addGuideline(owner);
    const before = await getBrand(t, owner.key);

    const toggle = await t.rest(other.key, 'POST', ACTIVE, { guidelineId, on: false });
    expect(toggle.status).toBe(404);
    expect(toggle.body.error).toBe(`guideline ${guidelineId} not found in this workspace`);
    expect((await t.rest(other.key, 'POST', REMOVE, { guidelineId })).status).toBe(404);

    expect(await getBrand(t, owner.key)).toEqual(before);
    expect((await getBrand(t, other.key)).guidelines).toEqual([]);
  });

  describe('over MCP', () => {
    it('adds, switches and removes a guideline', async () => {
      const ws = await t.workspace();
      const added = await t.mcpTool(ws.key, 'add_brand_guideline', { type: 'style', avoid: 'passive voice', instead: 'active voice' });
      expect(added.isError).toBe(false);
      const guidelineId = added.structuredContent.guidelineId as string;
      const off = await t.mcpTool(ws.key, 'set_brand_guideline_active', { guidelineId, on: false });
      expect(off.structuredContent.guideline).toMatchObject({ guidelineId, on: false });
      expect((await getBrand(t, ws.key)).guidelines[0]?.on).toBe(false);
      const removed = await t.mcpTool(ws.key, 'remove_brand_guideline', { guidelineId });
      expect(removed.structuredContent).toEqual({ guidelineId, removed: true });
      expect((await getBrand(t, ws.key)).guidelines).toEqual([]);
    });

    it('refuses a 301-character avoid with status 400 and answers 404 for a foreign id', async () => {
      const ws = await t.workspace();
      const other = await t.workspace();
      expectMcpBadInput(await t.mcpTool(ws.key, 'add_brand_guideline', { type: 'style', avoid: chars(301), instead: 'x' }), 'avoid', 'must have at most 300 characters');
      expect((await getBrand(t, ws.key)).guidelines).toEqual([]);
      const foreign = await addGuideline(other);
      const answer = await t.mcpTool(ws.key, 'remove_brand_guideline', { guidelineId: foreign });
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent.status).toBe(404);
      expect((await getBrand(t, other.key)).guidelines).toHaveLength(1);
    });
  });
});
