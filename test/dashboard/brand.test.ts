import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import type { Visitor } from '../support/visitor.js';
import { signedInVisitor } from './formVisitor.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

const signedIn = (role: 'owner' | 'member' = 'owner') => signedInVisitor(t, role, 'brand');

async function brandOf(ws: TestWorkspace) {
  const answer = await t.rest(ws.key, 'GET', '/api/v1/brand');
  return answer.body.data as {
    identity: Record<string, unknown>;
    profile: Record<string, unknown>;
    products: { productId: string; name: string; pricing: string | null; features: string[] }[];
    buyerProfiles: { profileId: string; title: string; demographics: Record<string, string>; painPoints: string[] }[];
    guidelines: { guidelineId: string; on: boolean; avoid: string }[];
    meta: { reviewed: boolean; reviewedAt: string | null };
  };
}

const pageText = async (visitor: Visitor, path: string) => {
  const answer = await visitor.request(path);
  expect(answer.status).toBe(200);
  return answer.text();
};

describe('Brand pages', () => {
  it('serves every Brand page with its title', async () => {
    const { ws, visitor } = await signedIn('member');
    for (const [path, title] of [
      ['brand', 'Profile'],
      ['brand/identity', 'Identity'],
      ['brand/icps', 'ICPs'],
      ['brand/products', 'Products'],
      ['brand/guidelines', 'Guidelines'],
    ]) {
      expect(await pageText(visitor, `/w/${ws.workspaceId}/${path}`)).toContain(`<h1>${title}</h1>`);
    }
  });

  it('changes the profile from its form, and shows the stored values back', async () => {
    const { ws, visitor, post } = await signedIn();
    const answer = await post('update_brand_profile', {
      tone: 'friendly',
      primaryColor: '#1a2b3c',
      secondaryColor: '',
      defaultLocale: 'de-de',
      flexibleScheduling: 'true',
      localBusiness: 'false',
      serviceArea: 'Berlin',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/w/${ws.workspaceId}/brand?done=update_brand_profile`);
    expect((await brandOf(ws)).profile).toMatchObject({ tone: 'friendly', primaryColor: '#1A2B3C', defaultLocale: 'de-DE', flexibleScheduling: true, localBusiness: false, serviceArea: 'Berlin' });
    const page = await pageText(visitor, `/w/${ws.workspaceId}/brand?done=update_brand_profile`);
    expect(page).toContain('Done: update brand profile.');
    expect(page).toContain('value="#1A2B3C"');
    expect(page).toContain('<option value="friendly" selected>');
    const refused = await post('update_brand_profile', { primaryColor: 'blue' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('primaryColor');
  });

  it('replaces the identity lists with exactly the lines sent, and an emptied list clears', async () => {
    const { ws, visitor, post } = await signedIn();
    await t.rest(ws.key, 'POST', '/api/v1/brand', { brandAliases: ['Acme', 'ACME Inc'], brandExclusions: ['Acme Bricks'], styleReferenceUrls: ['https://blog.example/style'] });
    const back = `/w/${ws.workspaceId}/brand/identity`;
    const answer = await post(
      'update_brand_identity',
      {
        name: 'Acme Analytics',
        industry: 'Software & SaaS',
        subIndustry: 'Data & analytics',
        productDescription: 'Product analytics for teams',
        authors: '{"name": "Ada Lovelace", "bio": "Writes about numbers"}\n{"name": "Grace Hopper"}',
        styleReferenceUrls: '',
        brandAliases: 'Acme Labs\n\n  AcmeHQ  ',
        brandExclusions: 'Acme Bricks',
      },
      back,
    );
    expect(answer.status, await answer.clone().text()).toBe(303);
    const { identity } = await brandOf(ws);
    expect(identity).toMatchObject({
      industry: 'Software & SaaS',
      subIndustry: 'Data & analytics',
      productDescription: 'Product analytics for teams',
      authors: [{ name: 'Ada Lovelace', bio: 'Writes about numbers' }, { name: 'Grace Hopper' }],
      styleReferenceUrls: [],
      brandAliases: ['Acme Labs', 'AcmeHQ'],
      brandExclusions: ['Acme Bricks'],
    });
    const page = await pageText(visitor, back);
    expect(page).toContain('Acme Labs\nAcmeHQ</textarea>');
    expect(page).toContain('<option value="Data &amp; analytics" selected>');
    expect(page).toContain('{&quot;name&quot;:&quot;Grace Hopper&quot;}');
  });

  it('shows the reviewed mark: not reviewed with a button, then the time it was confirmed', async () => {
    const { ws, visitor, post } = await signedIn('member');
    const before = await pageText(visitor, `/w/${ws.workspaceId}/brand`);
    expect(before).toContain('Not reviewed yet.');
    expect(before).toContain('id="confirm-reviewed"');
    expect((await post('confirm_brand_reviewed', {})).status).toBe(303);
    const { meta } = await brandOf(ws);
    expect(meta.reviewed).toBe(true);
    const after = await pageText(visitor, `/w/${ws.workspaceId}/brand`);
    expect(after).toContain('Reviewed: the brand was confirmed on');
    expect(after).toContain(`datetime="${meta.reviewedAt}"`);
    expect(after).not.toContain('id="confirm-reviewed"');
  });

  it('adds, edits and deletes a buyer profile', async () => {
    const { ws, visitor, post } = await signedIn();
    const back = `/w/${ws.workspaceId}/brand/icps`;
    const created = await post('write_brand_icp', { title: 'Ops lead', industry: 'Logistics', painPoints: 'Late trucks\nPaper forms', demographics: '{"seniority": "senior"}' }, back);
    expect(created.status, await created.clone().text()).toBe(303);
    const [profile] = (await brandOf(ws)).buyerProfiles;
    expect(profile).toMatchObject({ title: 'Ops lead', painPoints: ['Late trucks', 'Paper forms'], demographics: { seniority: 'senior' } });
    const page = await pageText(visitor, back);
    expect(page).toContain('<h3>Ops lead</h3>');
    expect(page).toContain(`name="profileId" value="${profile!.profileId}"`);
    expect((await post('write_brand_icp', { profileId: profile!.profileId, title: 'Head of operations', painPoints: 'Late trucks' }, back)).status).toBe(303);
    expect((await brandOf(ws)).buyerProfiles).toMatchObject([{ title: 'Head of operations', painPoints: ['Late trucks'] }]);
    expect((await post('write_brand_icp', { profileId: profile!.profileId, del: 'true' }, back)).status).toBe(303);
    expect((await brandOf(ws)).buyerProfiles).toEqual([]);
  });

  it('shows the writer model’s suggested audiences on a page of their own, saving nothing', async () => {
    const { ws, post } = await signedIn();
    const answer = await post('suggest_brand_icps', { show: 'result', exclude: '' }, `/w/${ws.workspaceId}/brand/icps`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('id="result"');
    expect((await brandOf(ws)).buyerProfiles).toEqual([]);
  });

  it('adds, edits and deletes a product', async () => {
    const { ws, visitor, post } = await signedIn();
    const back = `/w/${ws.workspaceId}/brand/products`;
    expect((await post('write_brand_product', { name: 'Widget', description: 'A widget', category: 'core_product', features: 'Fast\nSmall', pricing: 'from $49 a month' }, back)).status).toBe(303);
    const [product] = (await brandOf(ws)).products;
    expect(product).toMatchObject({ name: 'Widget', features: ['Fast', 'Small'], pricing: 'from $49 a month' });
    expect(await pageText(visitor, back)).toContain('<h3>Widget</h3>');
    expect((await post('write_brand_product', { productId: product!.productId, name: 'Widget Pro', features: 'Fast' }, back)).status).toBe(303);
    expect((await brandOf(ws)).products).toMatchObject([{ name: 'Widget Pro', features: ['Fast'] }]);
    expect((await post('write_brand_product', { productId: product!.productId, del: 'true' }, back)).status).toBe(303);
    expect((await brandOf(ws)).products).toEqual([]);
  });

  it('adds a guideline, switches it off and deletes it', async () => {
    const { ws, visitor, post } = await signedIn();
    const back = `/w/${ws.workspaceId}/brand/guidelines`;
    expect((await post('add_brand_guideline', { type: 'tone', avoid: 'jargon', instead: 'plain words' }, back)).status).toBe(303);
    const [guideline] = (await brandOf(ws)).guidelines;
    expect(guideline).toMatchObject({ avoid: 'jargon', on: true });
    const page = await pageText(visitor, back);
    expect(page).toContain('<td>jargon</td>');
    expect(page).toContain('Switch off</button>');
    expect((await post('set_brand_guideline_active', { guidelineId: guideline!.guidelineId, on: 'false' }, back)).status).toBe(303);
    expect((await brandOf(ws)).guidelines).toMatchObject([{ on: false }]);
    expect(await pageText(visitor, back)).toContain('Switch on</button>');
    expect((await post('remove_brand_guideline', { guidelineId: guideline!.guidelineId }, back)).status).toBe(303);
    expect((await brandOf(ws)).guidelines).toEqual([]);
  });
});
