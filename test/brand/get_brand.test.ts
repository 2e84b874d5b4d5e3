import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function write(key: string, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await t.rest(key, 'POST', path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

describe('get_brand', () => {
  it('returns every list in creation order, each item exactly as its write returned it', async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const products = [];
    const profiles = [];
    const guidelines = [];
    for (const n of [1, 2, 3]) {
      t.clock.advance(1000);
      products.push((await write(ws.key, '/api/v1/brand/product', { name: `P${n}`, description: `d${n}`, category: 'service', url: `https://acme.example/p${n}`, features: ['f'] })).product);
      profiles.push((await write(ws.key, '/api/v1/brand/icp', { title: `T${n}`, industry: 'Retail', demographics: { seniority: `s${n}` }, painPoints: ['slow'] })).buyerProfile);
      guidelines.push((await write(ws.key, '/api/v1/brand/guidelines', { type: 'style', avoid: `a${n}`, instead: `i${n}` })).guideline);
      await write(other.key, '/api/v1/brand/product', { name: `Other ${n}`, description: 'x', category: 'product' });
    }
    await write(ws.key, '/api/v1/brand/guidelines/active', { guidelineId: (guidelines[1] as { guidelineId: string }).guidelineId, on: false });
    const brand = (await t.rest(ws.key, 'GET', '/api/v1/brand')).body.data as Record<string, unknown>;
    expect(brand.products).toEqual(products);
    expect(brand.buyerProfiles).toEqual(profiles);
    expect(brand.guidelines).toEqual(guidelines.map((g, i) => (i === 1 ? { ...(g as object), on: false } : g)));
    expect(brand.links).toEqual([
      { label: 'Website', url: 'https://acme.example', kind: 'website' },
      ...[1, 2, 3].map((n) => ({ label: `P${n}`, url: `https://acme.example/p${n}`, kind: 'product' })),
    ]);
  });
});
