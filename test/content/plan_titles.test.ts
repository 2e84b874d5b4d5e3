import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { commit, ok } from './calendarSupport.js';

describe('plan_titles', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('asks the writer for candidate titles steered by brand memory, drops repeats of planned titles, and saves nothing', async () => {
    const ws = await t.workspace({ plan: 'trial' });
    await ok(t, ws, 'POST', '/api/v1/brand/guidelines', { type: 'terminology', avoid: 'customers', instead: 'clients' });
    await commit(t, ws, 1, 'Planned');
    t.writer.reply({
      content: {
        titles: [
          { title: 'CRM for agencies: what to look for', keyword: 'crm for agencies' },
          { title: 'planned 1', keyword: 'planned keyword' },
          { title: 'Agency CRM pricing explained ', keyword: ' agency crm pricing' },
        ],
      },
    });
    const before = await snapshot(t.db);
    const data = await ok(t, ws, 'POST', '/api/v1/content/plan', { count: 3, topic: 'CRM for small agencies', keywords: ['agency crm'] });
    expect(data).toEqual({
      candidates: [
        { title: 'CRM for agencies: what to look for', keyword: 'crm for agencies' },
        { title: 'Agency CRM pricing explained', keyword: 'agency crm pricing' },
      ],
      openSlots: 7,
      saved: false,
    });
    expect(await snapshot(t.db)).toEqual(before);
    const request = t.writer.requests.at(-1)!;
    expect(request.response_format?.json_schema?.name).toBe('title_candidates');
    const prompt = t.writer.lastPrompt();
    expect(prompt).toContain('Avoid: customers');
    expect(prompt).toContain('Propose 3 different article titles');
    expect(prompt).toContain('Topic: CRM for small agencies');
    expect(prompt).toContain('agency crm');
    expect(prompt).toContain('- Planned 1');
  });

  it('asks for 5 by default and refuses a count outside 1 to 10', async () => {
    const ws = await t.workspace();
    await ok(t, ws, 'POST', '/api/v1/content/plan', {});
    expect(t.writer.lastPrompt()).toContain('Propose 5 different article titles');
    expect((await t.rest(ws.key, 'POST', '/api/v1/content/plan', { count: 11 })).body.error).toBe('count: must be at most 10');
    expect((await t.rest(ws.key, 'POST', '/api/v1/content/plan', { count: 0 })).body.error).toBe('count: must be at least 1');
  });
});

describe('plan_titles without a writer model', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ writer: false });
  });
  afterAll(() => t.close());

  it('answers 400 naming the settings to configure', async () => {
    const ws = await t.workspace();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/content/plan', {});
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('WRITER_BASE_URL and WRITER_MODEL');
  });
});
