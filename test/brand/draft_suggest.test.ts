import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { expectBadInput, expectMcpBadInput, write } from './support.js';

const DRAFT = '/api/v1/brand/icp/draft';
const SUGGEST = '/api/v1/brand/icp/suggest';

/** What the model writes when asked for a whole buyer profile. */
const MODEL_PROFILE = {
  title: 'Model title',
  industry: 'Model industry',
  companySize: '10-50 employees',
  painPoints: ['Model pain'],
  buyingTriggers: ['Model trigger'],
  objections: ['Model objection'],
  preferredChannels: ['Model channel'],
  demographics: { ageRange: '30-45', seniority: 'Owner', department: 'Management' },
};

/** The model's answer for the keys it was asked for (the properties of the schema it received). */
function modelAnswer(request: { response_format?: { json_schema?: { schema: Record<string, unknown> } } }): Record<string, unknown> {
  const asked = Object.keys(request.response_format!.json_schema!.schema.properties as object);
  return Object.fromEntries(asked.map((key) => [key, MODEL_PROFILE[key as keyof typeof MODEL_PROFILE]]));
}

const suggestion = (title: string) => ({ title, industry: 'Dental care', who: `${title}, who want more patients.` });

/** The purposes of the workspace's writer_usage rows: a call that saves nothing still costs tokens. */
async function purposesBooked(t: TestService, workspaceId: string): Promise<string[]> {
  const rows = await t.db.selectFrom('writer_usage').select('purpose').where('workspace_id', '=', workspaceId).execute();
  return rows.map((row) => row.purpose);
}

describe('draft_brand_icp and suggest_brand_icps', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  describe('draft_brand_icp', () => {
    it('keeps the given keys exactly as sent, empty values included, asks the model only for the others, and saves nothing', async () => {
      const ws = await t.workspace();
      t.writer.answer('buyer_profile', modelAnswer);
      const given = { industry: '  Dental care ', companySize: '', painPoints: [], demographics: { ageRange: '' } };
      const before = await snapshot(t.db);
      const answer = await t.rest(ws.key, 'POST', DRAFT, { describe: 'Owners of small dental clinics', given });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data).toEqual({
        draft: {
          title: 'Model title',
          industry: '  Dental care ',
          companySize: '',
          painPoints: [],
          buyingTriggers: ['Model trigger'],
          objections: ['Model objection'],
          preferredChannels: ['Model channel'],
          demographics: { ageRange: '' },
        },
        kept: ['industry', 'companySize', 'painPoints', 'demographics'],
        filled: ['title', 'buyingTriggers', 'objections', 'preferredChannels'],
        saved: false,
      });
      const request = t.writer.requests.at(-1)!;
      expect(Object.keys(request.response_format!.json_schema!.schema.properties as object)).toEqual(['title', 'buyingTriggers', 'objections', 'preferredChannels']);
      expect(t.writer.lastPrompt()).toContain('Owners of small dental clinics');
      expect(t.writer.lastPrompt()).toContain(JSON.stringify(given));
      expect(await snapshot(t.db)).toEqual(before);
      expect(await purposesBooked(t, ws.workspaceId)).toEqual(['draft_icp']);
    });

    it('takes title as sent unless given has one, and fills every field from a bare call', async () => {
      const ws = await t.workspace();
      t.writer.answer('buyer_profile', modelAnswer);
      const titled = await write(t, ws.key, DRAFT, { title: 'Clinic owner', who: 'Dentists who run their own practice' });
      expect(titled.draft).toEqual({ ...MODEL_PROFILE, title: 'Clinic owner' });
      expect(t.writer.lastPrompt()).toContain('Dentists who run their own practice');
      const both = await write(t, ws.key, DRAFT, { title: 'Clinic owner', given: { title: 'Practice manager' } });
      expect((both.draft as Record<string, unknown>).title).toBe('Practice manager');
      expect((await write(t, ws.key, DRAFT, {})).draft).toEqual(MODEL_PROFILE);
    });

    it('answers without asking the model when every field is given', async () => {
      const ws = await t.workspace();
      const requests = t.writer.requests.length;
      const data = await write(t, ws.key, DRAFT, { given: { ...MODEL_PROFILE, objections: [] } });
      expect(data).toEqual({ draft: { ...MODEL_PROFILE, objections: [] }, kept: Object.keys(MODEL_PROFILE), filled: [], saved: false });
      expect(t.writer.requests.length).toBe(requests);
    });

    it('the draft saves as it is with write_brand_icp', async () => {
      const ws = await t.workspace();
      t.writer.reset();
      const { draft } = await write(t, ws.key, DRAFT, { describe: 'Clinic owners' });
      const saved = await write(t, ws.key, '/api/v1/brand/icp', draft as Record<string, unknown>);
      expect(saved.action).toBe('created');
    });

    it('refuses unknown and wrongly typed keys in given, naming them, on both surfaces', async () => {
      const ws = await t.workspace();
      expectBadInput(await t.rest(ws.key, 'POST', DRAFT, { given: { budget: '10k' } }), 'given.budget', 'is not a field of this operation');
      expectBadInput(await t.rest(ws.key, 'POST', DRAFT, { given: { painPoints: 'slow' } }), 'given.painPoints', 'must be a list');
      expectBadInput(await t.rest(ws.key, 'POST', DRAFT, { given: { demographics: { ageRange: 30 } } }), 'given.demographics.ageRange', 'must be a string');
      expectBadInput(await t.rest(ws.key, 'POST', DRAFT, { given: { companySize: 'x'.repeat(101) } }), 'given.companySize', 'must have at most 100 characters');
      expectMcpBadInput(await t.mcpTool(ws.key, 'draft_brand_icp', { given: { title: ['a'] } }), 'given.title', 'must be a string');
    });
  });

  describe('suggest_brand_icps', () => {
    it('answers at most 8 suggestions and saves nothing', async () => {
      const ws = await t.workspace();
      t.writer.answer('audience_suggestions', () => ({ suggestions: Array.from({ length: 12 }, (_, i) => suggestion(`Audience ${i + 1}`)) }));
      const before = await snapshot(t.db);
      const data = await write(t, ws.key, SUGGEST, {});
      expect(data.suggestions).toEqual(Array.from({ length: 8 }, (_, i) => suggestion(`Audience ${i + 1}`)));
      expect(await snapshot(t.db)).toEqual(before);
      expect(await purposesBooked(t, ws.workspaceId)).toEqual(['suggest_icps']);
    });

    it('never suggests an excluded title or an existing buyer profile, even when the model does, ignoring case and spacing', async () => {
      const ws = await t.workspace();
      await write(t, ws.key, '/api/v1/brand/icp', { title: 'Practice manager', industry: 'Dental care', demographics: {} });
      t.writer.answer('audience_suggestions', () => ({
        suggestions: [suggestion('Clinic OWNER'), suggestion('practice  manager'), suggestion('Dental hygienist'), suggestion('dental hygienist'), suggestion('Orthodontist')],
      }));
      const data = await write(t, ws.key, SUGGEST, { exclude: ['clinic owner'] });
      expect(data.suggestions).toEqual([suggestion('Dental hygienist'), suggestion('Orthodontist')]);
      expect(t.writer.lastPrompt()).toContain('Do not suggest these, or rewordings of them: "clinic owner", "Practice manager"');
    });
  });

  describe('without a writer model', () => {
    let bare: TestService;
    beforeAll(async () => {
      bare = await TestService.start({ writer: false });
    });
    afterAll(() => bare.close());

    it('both answer 400 naming the settings to configure, and change nothing', async () => {
      const ws = await bare.workspace();
      const before = await snapshot(bare.db);
      for (const [path, body] of [
        [DRAFT, { describe: 'Clinic owners' }],
        [SUGGEST, {}],
      ] as const) {
        const answer = await bare.rest(ws.key, 'POST', path, body);
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatch(/WRITER_BASE_URL and WRITER_MODEL/);
      }
      expect(await snapshot(bare.db)).toEqual(before);
    });
  });
});
