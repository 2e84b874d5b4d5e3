import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';

const PATH = '/api/v1/content/generate';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const iso = (ms: number) => new Date(ms).toISOString();

/** What the fake writer model answers for an article. */
const ARTICLE = {
  metaTitle: 'Dental CRM: how to choose one',
  metaDescription: 'What a dental clinic needs from a CRM, and how to compare them.',
  markdown: '# How to pick a CRM for dentists\n\nPick one that books chairs. See [our guide](https://acme.example/guide).\n\n## Booking\n\nPatients book online.',
  faq: [{ question: 'Is a CRM worth it?', answer: 'Yes, for clinics with more than one chair.' }],
  keywords: ['dental crm', 'crm for dentists'],
};

describe('generate_article', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
    t.writer.answer('article', () => ARTICLE);
  });
  afterAll(() => t.close());

  const plan = (ws: TestWorkspace, scheduledAt: number, title = 'How to pick a CRM for dentists') =>
    insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'crm for dentists', title, scheduledAt, language: 'en' });
  const article = (id: string) => t.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  // A key per call: the route's cap (5 a minute per key) is not what these tests are about.
  const generate = async (ws: TestWorkspace, contentId: string, confirm = true, key?: string) =>
    t.rest(key ?? (await t.key(ws.workspaceId, ['write:content'])), 'POST', PATH, { contentId, confirm });
  const dryRun = async (ws: TestWorkspace, contentId: string, key?: string) => {
    const answer = await generate(ws, contentId, false, key);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { dryRun: true; note: string; withinDailyLimit: boolean; nextWriteAt: string };
  };

  describe('the dry run', () => {
    it('says the article can be written now, changes nothing, and answers the same over MCP', async () => {
      const ws = await t.workspace();
      const id = await plan(ws, t.clock.now() + DAY);
      const before = await snapshot(t.db);
      const data = await dryRun(ws, id, ws.key);
      expect(data).toEqual({ dryRun: true, note: expect.stringContaining('Would write "How to pick a CRM for dentists"'), withinDailyLimit: true, nextWriteAt: iso(t.clock.now()) });
      expect(data.note).toContain('0 of 5 writes used in the last 24 hours');
      expect((await t.mcpTool(ws.key, 'generate_article', { contentId: id })).structuredContent).toEqual(data);
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  describe('the generate-now window', () => {
    it('accepts a past-due slot and a slot exactly 3 days ahead', async () => {
      const ws = await t.workspace();
      for (const slot of [t.clock.now() - 2 * DAY, t.clock.now() + 3 * DAY]) {
        const answer = await generate(ws, await plan(ws, slot));
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }
    });

    it('refuses a slot 3 days and a minute ahead, saying when it can be written, and changes nothing', async () => {
      const ws = await t.workspace();
      const slot = t.clock.now() + 3 * DAY + MINUTE;
      const id = await plan(ws, slot);
      const opens = iso(slot - 3 * DAY);
      const dry = await dryRun(ws, id);
      expect(dry).toMatchObject({ withinDailyLimit: true, nextWriteAt: opens });
      expect(dry.note).toContain(`It can be written from ${opens}`);
      const before = await snapshot(t.db);
      const refused = await generate(ws, id, true, ws.key);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(new RegExp(`^contentId: .*more than 3 days ahead.*it can be written from ${opens}`));
      expect(await snapshot(t.db)).toEqual(before);
      t.clock.advance(MINUTE);
      expect((await generate(ws, id)).status).toBe(200);
    });
  });

  describe('the rolling 24-hour volume', () => {
    it('accepts 5 writes in 24 hours, refuses the 6th until the oldest leaves the window, and counts per workspace', async () => {
      const ws = await t.workspace();
      const first = t.clock.now();
      for (let i = 0; i < 5; i++) {
        expect((await generate(ws, await plan(ws, first + DAY, `Article ${i}`))).status).toBe(200);
        t.clock.advance(HOUR);
      }
      const sixth = await plan(ws, first + DAY, 'Article 6');
      const dry = await dryRun(ws, sixth);
      expect(dry).toMatchObject({ withinDailyLimit: false, nextWriteAt: iso(first + DAY) });
      expect(dry.note).toContain('5 articles were already written in the last 24 hours');
      const refused = await generate(ws, sixth);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(`contentId: article ${sixth} cannot be written now: 5 articles were already written in the last 24 hours`);
      expect((await article(sixth)).writing_job_id).toBeNull();

      const other = await t.workspace({ name: 'Other Co', site: 'https://other.example' });
      expect((await generate(other, await plan(other, first + DAY))).status).toBe(200);

      t.clock.set(first + DAY - 1);
      expect((await generate(ws, sixth)).status).toBe(400);
      t.clock.set(first + DAY);
      expect(await dryRun(ws, sixth)).toMatchObject({ withinDailyLimit: true, nextWriteAt: iso(first + DAY) });
      expect((await generate(ws, sixth)).status).toBe(200);
    });

    it('lets only 5 of 6 simultaneous requests through', async () => {
      const ws = await t.workspace();
      const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => plan(ws, t.clock.now(), `Article ${i}`)));
      const answers = await Promise.all(ids.map((id) => generate(ws, id)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 400]);
    });

    it('reports the later of the two rules as nextWriteAt', async () => {
      const ws = await t.workspace();
      const first = t.clock.now();
      for (let i = 0; i < 5; i++) expect((await generate(ws, await plan(ws, first, `Article ${i}`))).status).toBe(200);
      const farSlot = first + 5 * DAY;
      expect(await dryRun(ws, await plan(ws, farSlot))).toMatchObject({ withinDailyLimit: false, nextWriteAt: iso(farSlot - 3 * DAY) });
    });
  });

  describe('writing', () => {
    it('is being written until the job ends, then is a draft with its body, in its unchanged slot', async () => {
      const ws = await t.workspace();
      await t.rest(ws.key, 'POST', '/api/v1/brand/profile', { defaultLocale: 'de-DE' });
      await t.rest(ws.key, 'POST', '/api/v1/brand', { authors: [{ name: 'Mara Lind', bio: 'Dentist' }, { name: 'Jon Berg' }] });
      const slot = t.clock.now() + 2 * DAY;
      const id = await plan(ws, slot);
      const answer = await generate(ws, id);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const { jobId } = answer.body.data as { jobId: string };
      expect(answer.body.data).toEqual({ contentId: id, jobId: expect.stringMatching(/^job_/), status: 'writing', scheduledAt: iso(slot) });
      expect(await article(id)).toMatchObject({ status: 'planned', writing_job_id: jobId, write_requested_at: t.clock.now(), scheduled_at: slot });

      const again = await generate(ws, id);
      expect(again.status).toBe(400);
      expect(again.body.error).toBe(`contentId: article ${id} is being written now; wait for the write to finish (list_jobs shows it)`);
      expect((await generate(ws, id, false)).status).toBe(400);

      t.clock.advance(MINUTE);
      await t.jobs.drain();
      const written = await article(id);
      expect(written).toMatchObject({
        status: 'draft',
        scheduled_at: slot,
        title: 'How to pick a CRM for dentists',
        writing_job_id: null,
        last_write_error: null,
        written_at: t.clock.now(),
        meta_title: ARTICLE.metaTitle,
        meta_description: ARTICLE.metaDescription,
        markdown: 'Pick one that books chairs. See [our guide](https://acme.example/guide).\n\n## Booking\n\nPatients book online.',
        word_count: 12,
        language: 'de-DE',
        category_name: null,
      });
      expect(JSON.parse(written.faq)).toEqual(ARTICLE.faq);
      expect(JSON.parse(written.keywords)).toEqual(ARTICLE.keywords);
      expect(JSON.parse(written.author!)).toEqual({ name: 'Mara Lind', bio: 'Dentist' });

      const job = await t.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ state: 'done', kind: 'write_article', subject_id: id, progress: 'Saving the draft' });
      expect(job.prompt_tokens).toBeGreaterThan(0);
      expect(job.completion_tokens).toBeGreaterThan(0);

      const prompt = t.writer.lastPrompt();
      expect(prompt).toContain('# Brand memory');
      expect(prompt).toContain('Title: How to pick a CRM for dentists');
      expect(prompt).toContain('in German (Germany) (de-DE)');
      expect(prompt).toContain('About 1500 words');
      expect(prompt).toContain('Author: Mara Lind (Dentist)');

      const rewrite = await generate(ws, id);
      expect(rewrite.status).toBe(400);
      expect(rewrite.body.error).toBe(`contentId: article ${id} is already written (status draft); only planned articles can be generated`);
    });

    it('follows the article policy: no FAQ asked or kept, its author and category', async () => {
      const ws = await t.workspace();
      await t.rest(ws.key, 'POST', '/api/v1/brand', { authors: [{ name: 'Mara Lind' }, { name: 'Jon Berg', linkedinUrl: 'https://www.linkedin.com/in/jonberg' }] });
      await t.db
        .insertInto('article_policies')
        .values({ workspace_id: ws.workspaceId, policy: JSON.stringify({ includeFaq: false, authorName: 'Jon Berg', categoryName: 'Guides', targetWordCount: 800 }), updated_at: t.clock.now() })
        .execute();
      const id = await plan(ws, t.clock.now());
      expect((await generate(ws, id)).status).toBe(200);
      t.writer.reply({ content: { ...ARTICLE, faq: [] } });
      await t.jobs.drain();
      const request = t.writer.requests.at(-1)!;
      expect((request.response_format!.json_schema!.schema.properties as Record<string, { maxItems?: number }>).faq!.maxItems).toBe(0);
      expect(t.writer.lastPrompt()).toContain('About 800 words');
      expect(t.writer.lastPrompt()).not.toContain('faq: 4 to 6');
      const written = await article(id);
      expect(written).toMatchObject({ status: 'draft', faq: '[]', category_name: 'Guides' });
      expect(JSON.parse(written.author!)).toEqual({ name: 'Jon Berg', linkedinUrl: 'https://www.linkedin.com/in/jonberg' });
    });

    it('leaves the article planned with the reason when the model answers out of shape twice, and it can be generated again', async () => {
      const ws = await t.workspace();
      const id = await plan(ws, t.clock.now());
      const answer = await generate(ws, id);
      const { jobId } = answer.body.data as { jobId: string };
      t.writer.reply({ content: { metaTitle: 'x'.repeat(61) } }, { content: { ...ARTICLE, metaTitle: 'x'.repeat(61) } });
      await t.jobs.drain();
      const job = await t.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(job.state).toBe('failed');
      expect(job.error).toBe("the writer model's answer did not match the article schema twice: metaTitle: must be 1 to 60 characters");
      expect(job.prompt_tokens).toBeGreaterThan(0);
      // Nothing was written, so the failed write does not count against the five a day.
      expect(await article(id)).toMatchObject({ status: 'planned', writing_job_id: null, write_requested_at: null, last_write_error: job.error, markdown: null });

      expect((await generate(ws, id)).status).toBe(200);
      expect((await article(id)).last_write_error).toBeNull();
      await t.jobs.drain();
      expect((await article(id)).status).toBe('draft');
    });

    it('puts the write back in the queue when the writer model is still unavailable after its own retries, and writes it on a later attempt', async () => {
      const ws = await t.workspace();
      const id = await plan(ws, t.clock.now());
      const { jobId } = (await generate(ws, id)).body.data as { jobId: string };
      const unavailable = { status: 503, body: { error: { message: 'The server is overloaded' } } };
      // The writer's own four attempts (one and three retries) all meet a 503.
      t.writer.reply(unavailable, unavailable, unavailable, unavailable);
      await t.jobs.drain();
      const waiting = await t.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
      expect(waiting.error).toMatch(/^the writer model kept failing after 4 attempts: /);
      expect(waiting.run_at).toBeGreaterThan(t.clock.now());
      expect(await article(id)).toMatchObject({ status: 'planned', writing_job_id: jobId });

      t.clock.advance(waiting.run_at - t.clock.now());
      await t.jobs.drain();
      expect(await t.db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({ state: 'done', attempts: 2 });
      expect(await article(id)).toMatchObject({ status: 'draft', writing_job_id: null });
    });

    it('ends without writing when the article was archived while queued', async () => {
      const ws = await t.workspace();
      const id = await plan(ws, t.clock.now());
      const { jobId } = (await generate(ws, id)).body.data as { jobId: string };
      await t.db.updateTable('articles').set({ status: 'archived', archived_at: t.clock.now() }).where('id', '=', id).execute();
      const requests = t.writer.requests.length;
      await t.jobs.drain();
      expect(t.writer.requests.length).toBe(requests);
      const job = await t.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(job.state).toBe('done');
      expect(JSON.parse(job.result!)).toMatchObject({ written: false });
      expect(await article(id)).toMatchObject({ status: 'archived', markdown: null });
    });

    it('refuses an archived article', async () => {
      const ws = await t.workspace();
      const id = await plan(ws, t.clock.now());
      await t.db.updateTable('articles').set({ status: 'archived', archived_at: t.clock.now() }).where('id', '=', id).execute();
      const answer = await generate(ws, id);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(`contentId: article ${id} is archived; archived articles cannot be written`);
    });
  });

  describe('without a writer model', () => {
    let bare: TestService;
    beforeAll(async () => {
      bare = await TestService.start({ writer: false });
    });
    afterAll(() => bare.close());

    it('the dry run still answers; confirming answers 400 naming the settings and changes nothing', async () => {
      const ws = await bare.workspace();
      const id = await insertPlannedArticle(bare.db, bare.clock, { workspaceId: ws.workspaceId, keyword: 'k', title: 'A title', scheduledAt: bare.clock.now(), language: 'en' });
      const dry = await bare.rest(ws.key, 'POST', PATH, { contentId: id });
      expect(dry.status).toBe(200);
      expect(dry.body.data).toMatchObject({ dryRun: true, withinDailyLimit: true });
      const before = await snapshot(bare.db);
      const refused = await bare.rest(ws.key, 'POST', PATH, { contentId: id, confirm: true });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/WRITER_BASE_URL and WRITER_MODEL/);
      expect(await snapshot(bare.db)).toEqual(before);
    });
  });
});
