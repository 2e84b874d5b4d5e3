import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { chars, expectBadInput, expectMcpBadInput, getBrand, items, write } from './support.js';

const PATH = '/api/v1/brand';
const HOUR_MS = 3_600_000;

describe('update_brand_identity', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  async function mentionSearchRequestedAt(workspaceId: string): Promise<number | null> {
    const row = await t.db.selectFrom('brands').select('mention_search_requested_at').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    return row.mention_search_requested_at;
  }

  it('saves every identity field and reads them back through get_brand', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    t.clock.advance(1000);
    const data = await write(t, ws.key, PATH, {
      name: '  Acme Insights  ',
      industry: 'Software & SaaS',
      subIndustry: 'Data & analytics',
      productDescription: 'Dashboards for product teams.',
      authors: [{ name: 'Ada Lovelace', bio: 'Head of content.', linkedinUrl: 'https://www.linkedin.com/in/ada' }, { name: 'Alan Turing' }],
      styleReferenceUrls: ['https://acme.example/blog/best-post', 'http://old.acme.example/style'],
      brandAliases: ['Acme', 'AcmeIQ'],
      brandExclusions: ['Acme Corp (the cartoon)'],
    });
    const brand = await getBrand(t, ws.key);
    expect(brand.identity).toEqual({
      name: 'Acme Insights',
      websiteUrl: 'https://acme.example',
      industry: 'Software & SaaS',
      subIndustry: 'Data & analytics',
      productDescription: 'Dashboards for product teams.',
      authors: [{ name: 'Ada Lovelace', bio: 'Head of content.', linkedinUrl: 'https://www.linkedin.com/in/ada' }, { name: 'Alan Turing' }],
      styleReferenceUrls: ['https://acme.example/blog/best-post', 'http://old.acme.example/style'],
      brandAliases: ['Acme', 'AcmeIQ'],
      brandExclusions: ['Acme Corp (the cartoon)'],
    });
    expect(data.identity).toEqual(brand.identity);
    expect(brand.meta.updatedAt).toBe(new Date(t.clock.now()).toISOString());
  });

  it('changes only the fields sent', async () => {
    const ws = await t.workspace();
    await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking', brandAliases: ['Acme'] });
    await write(t, ws.key, PATH, { productDescription: 'Loans.' });
    const { identity } = await getBrand(t, ws.key);
    expect(identity).toMatchObject({ name: 'Acme Analytics', industry: 'Finance', subIndustry: 'Banking', brandAliases: ['Acme'], productDescription: 'Loans.' });
  });

  it('replaces each list whole, and an empty list or description clears', async () => {
    const ws = await t.workspace();
    await write(t, ws.key, PATH, {
      authors: [{ name: 'A' }, { name: 'B' }],
      styleReferenceUrls: ['https://a.example', 'https://b.example'],
      brandAliases: ['one', 'two', 'three'],
      brandExclusions: ['x', 'y'],
      productDescription: 'Something.',
    });
    await write(t, ws.key, PATH, { authors: [{ name: 'C' }], styleReferenceUrls: ['https://c.example'], brandAliases: ['four'], brandExclusions: [], productDescription: '' });
    const { identity } = await getBrand(t, ws.key);
    expect(identity.authors).toEqual([{ name: 'C' }]);
    expect(identity.styleReferenceUrls).toEqual(['https://c.example']);
    expect(identity.brandAliases).toEqual(['four']);
    expect(identity.brandExclusions).toEqual([]);
    expect(identity.productDescription).toBeNull();
  });

  it('accepts a name of exactly 200 characters and list items at their limits', async () => {
    const ws = await t.workspace();
    await write(t, ws.key, PATH, { name: chars(200), brandAliases: items(50, (i) => `${i}`.padEnd(100, 'a')), authors: items(20, (i) => ({ name: `Author ${i}`, bio: chars(1000) })) });
    const { identity } = await getBrand(t, ws.key);
    expect(identity.name).toBe(chars(200));
    expect(identity.brandAliases).toHaveLength(50);
    expect(identity.authors).toHaveLength(20);
  });

  describe('industry and sub-industry', () => {
    it('clears the stored sub-industry when a new industry comes without one', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking' });
      await write(t, ws.key, PATH, { industry: 'Health' });
      const { identity } = await getBrand(t, ws.key);
      expect(identity).toMatchObject({ industry: 'Health', subIndustry: null });
    });

    it('keeps the sub-industry when the same industry is sent again', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking' });
      await write(t, ws.key, PATH, { industry: 'Finance' });
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ industry: 'Finance', subIndustry: 'Banking' });
    });

    it('checks a sub-industry sent alone against the stored industry', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking' });
      await write(t, ws.key, PATH, { subIndustry: 'Insurance' });
      expect((await getBrand(t, ws.key)).identity.subIndustry).toBe('Insurance');
      const refused = await t.rest(ws.key, 'POST', PATH, { subIndustry: 'Dental', name: 'Renamed' });
      expectBadInput(refused, 'subIndustry', 'must be one of the sub-industries of Finance: Banking, Insurance');
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ name: 'Acme Analytics', subIndustry: 'Insurance' });
      // The refused rename must not have queued a mention search either: the whole call rolled back.
      expect(await mentionSearchRequestedAt(ws.workspaceId)).toBeNull();
    });

    it('checks a sub-industry against the industry sent in the same call', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking' });
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { industry: 'Health', subIndustry: 'Banking' }), 'subIndustry', 'must be one of the sub-industries of Health');
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ industry: 'Finance', subIndustry: 'Banking' });
      await write(t, ws.key, PATH, { industry: 'Health', subIndustry: 'Dental' });
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ industry: 'Health', subIndustry: 'Dental' });
    });

    it('refuses a sub-industry when no industry is set, and any sub-industry under Other', async () => {
      const ws = await t.workspace();
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { subIndustry: 'Banking' }), 'subIndustry', 'needs an industry');
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { industry: 'Other', subIndustry: 'Banking' }), 'subIndustry', 'must be left out or null');
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ industry: null, subIndustry: null });
    });

    it('clears the sub-industry on null or an empty string', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking' });
      await write(t, ws.key, PATH, { subIndustry: null });
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ industry: 'Finance', subIndustry: null });
      await write(t, ws.key, PATH, { subIndustry: 'Payments' });
      await write(t, ws.key, PATH, { subIndustry: '' });
      expect((await getBrand(t, ws.key)).identity).toMatchObject({ industry: 'Finance', subIndustry: null });
    });
  });

  it('refuses websiteUrl, saying it cannot be changed, and applies nothing else from the call', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    const answer = await t.rest(ws.key, 'POST', PATH, { websiteUrl: 'https://other.example', name: 'Other' });
    expectBadInput(answer, 'websiteUrl', 'cannot be changed');
    expect((await getBrand(t, ws.key)).identity).toMatchObject({ name: 'Acme Analytics', websiteUrl: 'https://acme.example' });
  });

  describe('refuses bad input with a 400 naming the field, and changes nothing', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['an empty name', { name: '   ' }, 'name', 'must not be empty'],
      ['a 201-character name', { name: chars(201) }, 'name', 'must have at most 200 characters'],
      ['an industry not on the list', { industry: 'Space travel' }, 'industry', 'must be one of Software & SaaS'],
      ['a 5001-character product description', { productDescription: chars(5001) }, 'productDescription', 'must have at most 5000 characters'],
      ['21 authors', { authors: items(21, (i) => ({ name: `A${i}` })) }, 'authors', 'must have at most 20 items'],
      ['an author without a name', { authors: [{ bio: 'Writes.' }] }, 'authors[0].name', 'is required'],
      ['a 1001-character author bio', { authors: [{ name: 'A', bio: chars(1001) }] }, 'authors[0].bio', 'must have at most 1000 characters'],
      ['an http LinkedIn URL', { authors: [{ name: 'A', linkedinUrl: 'http://www.linkedin.com/in/a' }] }, 'authors[0].linkedinUrl', 'must be an absolute https URL'],
      ['an unknown author field', { authors: [{ name: 'A', twitter: '@a' }] }, 'authors[0].twitter', 'is not a field of this operation'],
      ['a style reference that is not a URL', { styleReferenceUrls: ['our blog'] }, 'styleReferenceUrls[0]', 'must be an absolute http(s) URL'],
      ['an ftp style reference', { styleReferenceUrls: ['https://ok.example', 'ftp://files.example/style'] }, 'styleReferenceUrls[1]', 'must be an absolute http(s) URL'],
      ['21 style references', { styleReferenceUrls: items(21, (i) => `https://s${i}.example`) }, 'styleReferenceUrls', 'must have at most 20 items'],
      ['an empty alias', { brandAliases: ['Acme', ''] }, 'brandAliases[1]', 'must not be empty'],
      ['a 101-character alias', { brandAliases: [chars(101)] }, 'brandAliases[0]', 'must have at most 100 characters'],
      ['51 aliases', { brandAliases: items(51) }, 'brandAliases', 'must have at most 50 items'],
      ['a 101-character exclusion', { brandExclusions: [chars(101)] }, 'brandExclusions[0]', 'must have at most 100 characters'],
      ['51 exclusions', { brandExclusions: items(51) }, 'brandExclusions', 'must have at most 50 items'],
      ['a list sent as a string', { brandAliases: 'Acme' }, 'brandAliases', 'must be a list'],
      ['an unknown field', { slogan: 'Know more' }, 'slogan', 'is not a field of this operation'],
    ];

    it.each(cases)('%s', async (_name, bad, field, rule) => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { industry: 'Finance', subIndustry: 'Banking', brandAliases: ['Acme'], authors: [{ name: 'Ada' }] });
      const before = await getBrand(t, ws.key);
      t.clock.advance(1000);
      // A valid change rides along with the bad field: it must not be applied either.
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { brandExclusions: ['Valid'], ...bad }), field, rule);
      expect(await getBrand(t, ws.key)).toEqual(before);
    });
  });

  describe('brand-mention search after a name change', () => {
    it('queues at most once a day and only for a real change', async () => {
      const ws = await t.workspace({ name: 'Acme' });
      const first = t.clock.now();

      const unchanged = await write(t, ws.key, PATH, { name: 'Acme', productDescription: 'Same name.' });
      expect(unchanged.mentionSearch).toEqual({ queued: false, reason: 'name unchanged' });
      expect(await mentionSearchRequestedAt(ws.workspaceId)).toBeNull();

      const renamed = await write(t, ws.key, PATH, { name: 'Acme Insights' });
      expect(renamed.mentionSearch).toEqual({ queued: true, requestedAt: new Date(first).toISOString() });
      expect(await mentionSearchRequestedAt(ws.workspaceId)).toBe(first);

      t.clock.advance(23 * HOUR_MS);
      const again = await write(t, ws.key, PATH, { name: 'Acme Labs' });
      expect(again.mentionSearch).toMatchObject({ queued: false });
      expect((again.mentionSearch as { reason: string }).reason).toContain(`already queued at ${new Date(first).toISOString()}`);
      expect((again.mentionSearch as { reason: string }).reason).toContain('at most once a day');
      expect(await mentionSearchRequestedAt(ws.workspaceId)).toBe(first);
      // The rename itself is saved even though the search is not queued again.
      expect((await getBrand(t, ws.key)).identity.name).toBe('Acme Labs');

      t.clock.advance(HOUR_MS);
      const nextDay = await write(t, ws.key, PATH, { name: 'Acme Cloud' });
      expect(nextDay.mentionSearch).toEqual({ queued: true, requestedAt: new Date(first + 24 * HOUR_MS).toISOString() });
      expect(await mentionSearchRequestedAt(ws.workspaceId)).toBe(first + 24 * HOUR_MS);

      const otherField = await write(t, ws.key, PATH, { brandAliases: ['AC'] });
      expect(otherField.mentionSearch).toEqual({ queued: false, reason: 'name unchanged' });
      expect(await mentionSearchRequestedAt(ws.workspaceId)).toBe(first + 24 * HOUR_MS);
    });

    it('is tracked per workspace', async () => {
      const a = await t.workspace();
      const b = await t.workspace();
      await write(t, a.key, PATH, { name: 'A renamed' });
      const answer = await write(t, b.key, PATH, { name: 'B renamed' });
      expect(answer.mentionSearch).toMatchObject({ queued: true });
    });
  });

  describe('over MCP', () => {
    it('answers the same identity as REST', async () => {
      const ws = await t.workspace();
      const answer = await t.mcpTool(ws.key, 'update_brand_identity', { industry: 'Legal', subIndustry: 'Legal tech' });
      expect(answer.isError).toBe(false);
      expect(answer.structuredContent.identity).toEqual((await getBrand(t, ws.key)).identity);
    });

    it('refuses websiteUrl and a foreign sub-industry with status 400', async () => {
      const ws = await t.workspace();
      expectMcpBadInput(await t.mcpTool(ws.key, 'update_brand_identity', { websiteUrl: 'https://x.example' }), 'websiteUrl', 'cannot be changed');
      expectMcpBadInput(await t.mcpTool(ws.key, 'update_brand_identity', { industry: 'Legal', subIndustry: 'Banking' }), 'subIndustry', 'must be one of the sub-industries of Legal');
      expect((await getBrand(t, ws.key)).identity.industry).toBeNull();
    });
  });
});
