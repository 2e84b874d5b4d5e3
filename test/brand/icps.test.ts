import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { chars, expectBadInput, expectMcpBadInput, getBrand, items, write } from './support.js';

const PATH = '/api/v1/brand/icp';

const FULL = {
  title: 'Head of growth at a B2B SaaS',
  industry: 'B2B software',
  companySize: '50-200 employees',
  painPoints: ['No time to write', 'Invisible in AI answers'],
  buyingTriggers: ['New funding round'],
  objections: ['AI content sounds generic'],
  preferredChannels: ['LinkedIn', 'Newsletters'],
  demographics: { ageRange: '30-45', seniority: 'Director', department: 'Marketing' },
};

describe('write_brand_icp', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  async function createIcp(ws: TestWorkspace, body: Record<string, unknown> = FULL): Promise<string> {
    const data = await write(t, ws.key, PATH, body);
    return data.profileId as string;
  }

  it('creates a buyer profile with every field and shows it in get_brand', async () => {
    const ws = await t.workspace();
    const data = await write(t, ws.key, PATH, FULL);
    expect(data.action).toBe('created');
    expect(data.profileId).toMatch(/^icp_[0-9a-f]{24}$/);
    const now = new Date(t.clock.now()).toISOString();
    const { buyerProfiles } = await getBrand(t, ws.key);
    expect(buyerProfiles).toEqual([{ profileId: data.profileId, ...FULL, createdAt: now, updatedAt: now }]);
    expect(data.buyerProfile).toEqual(buyerProfiles[0]);
  });

  it('creates a buyer profile from the required fields alone, keeping empty demographic values as written', async () => {
    const ws = await t.workspace();
    await createIcp(ws, { title: 'Clinic owner', industry: 'Dental care', demographics: { seniority: 'Owner', ageRange: '' } });
    expect((await getBrand(t, ws.key)).buyerProfiles[0]).toMatchObject({
      title: 'Clinic owner',
      companySize: null,
      painPoints: [],
      buyingTriggers: [],
      objections: [],
      preferredChannels: [],
      demographics: { seniority: 'Owner', ageRange: '' },
    });
  });

  it('names each required field a create lacks, and creates nothing', async () => {
    const ws = await t.workspace();
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { industry: 'i', demographics: {} }), 'title', 'is required when creating a buyer profile (no profileId)');
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { title: 't', demographics: {} }), 'industry', 'is required when creating a buyer profile (no profileId)');
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { title: 't', industry: 'i' }), 'demographics', 'is required when creating a buyer profile (no profileId)');
    expect((await getBrand(t, ws.key)).buyerProfiles).toEqual([]);
  });

  it('updates only the fields sent; lists and demographics replace the stored ones', async () => {
    const ws = await t.workspace();
    const profileId = await createIcp(ws);
    const created = (await getBrand(t, ws.key)).buyerProfiles[0]!;
    t.clock.advance(60_000);
    const data = await write(t, ws.key, PATH, { profileId, painPoints: ['Budget cuts'], demographics: { seniority: 'VP' } });
    expect(data.action).toBe('updated');
    const [profile] = (await getBrand(t, ws.key)).buyerProfiles;
    expect(profile).toEqual({ ...created, painPoints: ['Budget cuts'], demographics: { seniority: 'VP' }, updatedAt: new Date(t.clock.now()).toISOString() });
    expect(data.buyerProfile).toEqual(profile);
  });

  it('clears companySize on an empty string', async () => {
    const ws = await t.workspace();
    const profileId = await createIcp(ws);
    await write(t, ws.key, PATH, { profileId, companySize: '' });
    expect((await getBrand(t, ws.key)).buyerProfiles[0]).toMatchObject({ companySize: null, title: FULL.title });
  });

  it('deletes a buyer profile with profileId and del: true', async () => {
    const ws = await t.workspace();
    const keep = await createIcp(ws);
    const profileId = await createIcp(ws, { ...FULL, title: 'Agency founder' });
    expect(await write(t, ws.key, PATH, { profileId, del: true })).toEqual({ action: 'deleted', profileId });
    expect((await getBrand(t, ws.key)).buyerProfiles.map((p) => p.profileId)).toEqual([keep]);
    expect((await t.rest(ws.key, 'POST', PATH, { profileId, del: true })).status).toBe(404);
  });

  it('refuses del: true without profileId or with other fields, and an update that changes nothing', async () => {
    const ws = await t.workspace();
    const profileId = await createIcp(ws);
    const before = await getBrand(t, ws.key);
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { del: true }), 'profileId', 'is required to delete');
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { profileId, del: true, demographics: {} }), 'demographics', 'must not be sent with del: true');
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { profileId }), 'body', 'send at least one buyer profile field');
    expect(await getBrand(t, ws.key)).toEqual(before);
  });

  it("answers 404 for an unknown or another workspace's buyer profile and leaves it untouched", async () => {
    const owner = await t.workspace();
    const other = await t.workspace();
    const profileId = await createIcp(owner);
    const before = await getBrand(t, owner.key);

    const update = await t.rest(other.key, 'POST', PATH, { profileId, title: 'Hijacked' });
    expect(update.status).toBe(404);
    expect(update.body.error).toBe(`buyer profile ${profileId} not found in this workspace`);
    expect((await t.rest(other.key, 'POST', PATH, { profileId, del: true })).status).toBe(404);
    expect((await t.rest(owner.key, 'POST', PATH, { profileId: 'icp_000000000000000000000000', title: 'x' })).status).toBe(404);

    expect(await getBrand(t, owner.key)).toEqual(before);
    expect((await getBrand(t, other.key)).buyerProfiles).toEqual([]);
  });

  it('accepts every list and the demographics at their limits', async () => {
    const ws = await t.workspace();
    const demographics = Object.fromEntries(items(30, (i) => [`key${i}`, chars(200)]) as Array<[string, string]>);
    await createIcp(ws, { title: chars(200), industry: chars(200), companySize: chars(100), painPoints: items(20, () => chars(300)), demographics });
    const [profile] = (await getBrand(t, ws.key)).buyerProfiles;
    expect(profile?.painPoints).toHaveLength(20);
    expect(Object.keys(profile?.demographics ?? {})).toHaveLength(30);
  });

  describe('refuses bad input with a 400 naming the field, and changes nothing', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['an empty title', { title: ' ' }, 'title', 'must not be empty'],
      ['a 201-character title', { title: chars(201) }, 'title', 'must have at most 200 characters'],
      ['a 201-character industry', { industry: chars(201) }, 'industry', 'must have at most 200 characters'],
      ['a 101-character companySize', { companySize: chars(101) }, 'companySize', 'must have at most 100 characters'],
      ['21 pain points', { painPoints: items(21) }, 'painPoints', 'must have at most 20 items'],
      ['a 301-character buying trigger', { buyingTriggers: [chars(301)] }, 'buyingTriggers[0]', 'must have at most 300 characters'],
      ['21 objections', { objections: items(21) }, 'objections', 'must have at most 20 items'],
      ['an empty preferred channel', { preferredChannels: [''] }, 'preferredChannels[0]', 'must not be empty'],
      ['a 201-character demographic value', { demographics: { seniority: chars(201) } }, 'demographics.seniority', 'must have at most 200 characters'],
      ['a number as a demographic value', { demographics: { age: 40 } }, 'demographics.age', 'must be a string'],
      ['31 demographic keys', { demographics: Object.fromEntries(items(31, (i) => [`k${i}`, 'v']) as Array<[string, string]>) }, 'demographics', 'must have at most 30 keys'],
      ['demographics as a list', { demographics: ['Director'] }, 'demographics', 'must be an object'],
      ['a blank demographic key', { demographics: { ' ': 'x' } }, 'demographics', 'keys must be 1 to 50 characters'],
      ['a 51-character demographic key', { demographics: { [chars(51)]: 'x' } }, 'demographics', 'keys must be 1 to 50 characters'],
      ['an unknown field', { persona: 'Growth Gary' }, 'persona', 'is not a field of this operation'],
    ];

    it.each(cases)('%s', async (_name, bad, field, rule) => {
      const ws = await t.workspace();
      const profileId = await createIcp(ws);
      const before = await getBrand(t, ws.key);
      t.clock.advance(1000);
      // A valid change rides along on an update, and the same bad field on a create must not create anything.
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { profileId, objections: ['Valid'], ...bad }), field, rule);
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { ...FULL, ...bad }), field, rule);
      expect(await getBrand(t, ws.key)).toEqual(before);
    });
  });

  describe('over MCP', () => {
    it('creates and updates a buyer profile', async () => {
      const ws = await t.workspace();
      const created = await t.mcpTool(ws.key, 'write_brand_icp', FULL);
      expect(created.structuredContent.action).toBe('created');
      const profileId = created.structuredContent.profileId as string;
      const updated = await t.mcpTool(ws.key, 'write_brand_icp', { profileId, objections: [] });
      expect(updated.structuredContent.buyerProfile).toEqual((await getBrand(t, ws.key)).buyerProfiles[0]);
      expect((await getBrand(t, ws.key)).buyerProfiles[0]?.objections).toEqual([]);
    });

    it('names a missing required field and a bad list item with status 400', async () => {
      const ws = await t.workspace();
      expectMcpBadInput(await t.mcpTool(ws.key, 'write_brand_icp', { title: 't', industry: 'i' }), 'demographics', 'is required when creating a buyer profile');
      expectMcpBadInput(await t.mcpTool(ws.key, 'write_brand_icp', { ...FULL, painPoints: [chars(301)] }), 'painPoints[0]', 'must have at most 300 characters');
      expect((await getBrand(t, ws.key)).buyerProfiles).toEqual([]);
    });
  });
});
