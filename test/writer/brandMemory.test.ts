import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';

/** Calls a write over REST and expects a 200, returning its data. */
async function post(t: TestService, ws: TestWorkspace, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await t.rest(ws.key, 'POST', path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

describe('brand memory in writer prompts', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  /** The system prompt the writer model received for a draft_brand_icp call. */
  async function systemPrompt(ws: TestWorkspace): Promise<string> {
    await post(t, ws, '/api/v1/brand/icp/draft', { describe: 'Clinic owners' });
    return t.writer.requests.at(-1)!.messages.find((m) => m.role === 'system')!.content;
  }

  it('carries identity, voice, locale, products, buyer profiles, authors and style references', async () => {
    const ws = await t.workspace();
    await post(t, ws, '/api/v1/brand', {
      industry: 'Health',
      subIndustry: 'Dental',
      productDescription: 'Practice software for dental clinics.',
      brandAliases: ['Acme Dental'],
      authors: [{ name: 'Dr. Mara Lind', bio: 'Dentist for 20 years' }],
      styleReferenceUrls: ['https://acme.example/blog/best-post'],
    });
    await post(t, ws, '/api/v1/brand/profile', { tone: 'friendly', defaultLocale: 'de-AT', localBusiness: true, serviceArea: 'Vienna' });
    await post(t, ws, '/api/v1/brand/product', {
      name: 'Acme Chair',
      description: 'Scheduling for dental chairs',
      category: 'core_product',
      pricing: 'from 49 euros a month',
      features: ['Online booking'],
      usps: ['Set up in a day'],
      url: 'https://acme.example/chair',
    });
    await post(t, ws, '/api/v1/brand/icp', {
      title: 'Owner of a dental clinic',
      industry: 'Dental care',
      painPoints: ['Empty chairs'],
      demographics: { seniority: 'Owner' },
    });
    const prompt = await systemPrompt(ws);
    for (const expected of [
      'Brand: Acme Analytics',
      'Website: https://acme.example',
      'Industry: Health / Dental',
      'Practice software for dental clinics.',
      'Acme Dental',
      'Tone: friendly',
      'Austrian German (de-AT)',
      'https://acme.example/blog/best-post',
      'serving Vienna',
      '- Acme Chair (core product): Scheduling for dental chairs',
      'from 49 euros a month',
      'Online booking',
      'Set up in a day',
      'https://acme.example/chair',
      '- Owner of a dental clinic (industry: Dental care)',
      'Empty chairs',
      'seniority Owner',
      '- Dr. Mara Lind: Dentist for 20 years',
    ]) {
      expect(prompt).toContain(expected);
    }
  });

  it('leaves out a guideline while it is switched off, and brings it back when it is switched on', async () => {
    const ws = await t.workspace();
    await post(t, ws, '/api/v1/brand/guidelines', { type: 'terminology', avoid: 'customers', instead: 'patients' });
    const toggled = await post(t, ws, '/api/v1/brand/guidelines', { type: 'style', avoid: 'exclamation marks', instead: 'calm full stops' });
    const line = '- (style) Avoid: exclamation marks — Instead: calm full stops';
    expect(await systemPrompt(ws)).toContain(line);

    await post(t, ws, '/api/v1/brand/guidelines/active', { guidelineId: toggled.guidelineId, on: false });
    const withoutIt = await systemPrompt(ws);
    expect(withoutIt).not.toContain('exclamation marks');
    expect(withoutIt).toContain('- (terminology) Avoid: customers — Instead: patients');

    await post(t, ws, '/api/v1/brand/guidelines/active', { guidelineId: toggled.guidelineId, on: true });
    expect(await systemPrompt(ws)).toContain(line);
  });
});
