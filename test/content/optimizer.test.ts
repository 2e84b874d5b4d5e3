import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findArticle } from '../../src/content/articles.js';
import { citabilityReport, healthReport } from '../../src/content/optimizer.js';
import { TestService } from '../support/harness.js';
import { insertPublishedArticle, insertWrittenArticle } from '../links/support.js';

const DAY = 86_400_000;

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

const FULL = [
  'A CRM for a startup should cost under $50 a month and hold every customer conversation in one place.',
  '## What a CRM does',
  'In 2025, 64% of startups used one, according to [a survey](https://example.org/survey).',
  '### Contacts',
  'Every contact, see [the study](https://research.example.net/crm).',
  '## How to choose',
  'Start with 3 must-haves.',
  '## What it costs',
  'Plans start free.',
].join('\n\n');

const FAQ = JSON.stringify([
  { question: 'Is a CRM worth it?', answer: 'Yes.' },
  { question: 'Which CRM first?', answer: 'A simple one.' },
  { question: 'When to switch?', answer: 'When you outgrow it.' },
]);

async function article(fields: Parameters<typeof insertWrittenArticle>[3]) {
  const ws = await t.workspace();
  const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, fields);
  return { ws, row: await findArticle(t.db, ws.workspaceId, id), id };
}

function met(report: ReturnType<typeof citabilityReport>) {
  return Object.fromEntries(report.points.map((point) => [point.key, point.met]));
}

describe('citabilityReport', () => {
  it('scores 100 when every point is met, with a reason for each', async () => {
    const { row } = await article({ markdown: FULL, faq: FAQ });
    const report = citabilityReport(row, t.clock.now());
    expect(report.score).toBe(100);
    expect(report.points.map((point) => [point.key, point.weight])).toEqual([
      ['answerFirst', 20],
      ['headings', 15],
      ['faq', 15],
      ['structuredData', 15],
      ['sources', 15],
      ['statistics', 10],
      ['freshness', 10],
    ]);
    expect(report.points.find((point) => point.key === 'headings')?.reason).toBe('3 H2 sections and 1 H3 subsections, no level skipped');
    expect(report.points.find((point) => point.key === 'statistics')?.reason).toBe('4 figures in the text (1 percentages, 1 years, 2 other numbers)');
    expect(report.points.find((point) => point.key === 'structuredData')?.reason).toBe('Article JSON-LD with headline and description, plus FAQPage for 3 questions');
  });

  it('scores each missed point off by its weight', async () => {
    // Opens with a heading (answerFirst 20), 1 H2 and an H4 after it (headings 15), 2 FAQ entries (faq 15),
    // no meta description (structuredData 15), one outside source (sources 15), two figures (statistics 10), written 200 days ago (freshness 10).
    const markdown = '## Intro\n\nA CRM keeps 2 lists, see [one source](https://example.org/a) and [home](/pricing).\n\n#### Detail\n\nSince 2024.';
    const { row } = await article({
      markdown,
      faq: JSON.stringify([
        { question: 'a?', answer: 'b' },
        { question: 'c?', answer: 'd' },
      ]),
      meta_description: null,
      written_at: t.clock.now() - 200 * DAY,
    });
    const report = citabilityReport(row, t.clock.now());
    expect(report.score).toBe(0);
    expect(Object.fromEntries(report.points.map((point) => [point.key, point.reason]))).toEqual({
      answerFirst: 'the article does not open with a paragraph before its first section heading',
      headings: 'an H4 follows an H2: heading levels are skipped',
      faq: '2 FAQ entries; at least 3 are needed',
      structuredData: 'the Article JSON-LD lacks a meta description (the Article description)',
      sources: '1 links to outside sources; at least 2 back the claims',
      statistics: '2 figures in the text (0 percentages, 1 years, 1 other numbers); at least 3 are needed',
      freshness: 'written 200 days ago; older than 180 days',
    });
  });

  it('adds up only the met weights: a long opening and a question are not answers first', async () => {
    const long = `${'word '.repeat(61).trim()}.\n\n${FULL.split('\n\n').slice(1).join('\n\n')}`;
    const longReport = citabilityReport((await article({ markdown: long, faq: FAQ })).row, t.clock.now());
    expect(met(longReport).answerFirst).toBe(false);
    expect(longReport.score).toBe(80);

    const question = `Do startups need a CRM?\n\n${FULL.split('\n\n').slice(1).join('\n\n')}`;
    const questionReport = citabilityReport((await article({ markdown: question, faq: '[]' })).row, t.clock.now());
    // answerFirst 20 and faq 15 missed.
    expect(met(questionReport)).toMatchObject({ answerFirst: false, faq: false, headings: true });
    expect(questionReport.score).toBe(65);
  });

  it('does not count figures or links in headings and code', async () => {
    const markdown = 'Short answer here.\n\n## Top 10 tools in 2026\n\n`99% 2024 [x](https://a.example/b)`\n\n```\n1 2 3\n```';
    const report = citabilityReport((await article({ markdown })).row, t.clock.now());
    expect(report.points.find((point) => point.key === 'statistics')?.reason).toBe('0 figures in the text (0 percentages, 0 years, 0 other numbers); at least 3 are needed');
    expect(met(report).sources).toBe(false);
  });
});

describe('healthReport', () => {
  it('a healthy draft scores 100; live checks and internal links do not apply before publishing', async () => {
    const { row } = await article({});
    expect(healthReport(row, { internalLinksOut: 0, now: t.clock.now() })).toEqual({ score: 100, issues: [] });
  });

  it('marks each failed check off by its share of the checks that apply', async () => {
    const { row } = await article({ meta_title: 'x'.repeat(61), meta_description: null, word_count: 1100 });
    // Three checks apply to a draft, each 20, and all three fail: 1100 words are under 1200 (80% of 1500).
    expect(healthReport(row, { internalLinksOut: 0, now: t.clock.now() })).toEqual({
      score: 0,
      issues: [
        { check: 'metaTitle', message: 'the meta title has 61 characters; at most 60 show in results' },
        { check: 'metaDescription', message: 'no meta description' },
        { check: 'wordCount', message: '1100 words; the target is 1500 (at least 1200)' },
      ],
    });
    // With a target of 1000, 1100 words meet the 800 minimum: one of three checks met.
    expect(healthReport(row, { internalLinksOut: 0, now: t.clock.now(), targetWordCount: 1000 }).score).toBe(33);
  });

  it('checks internal links and the live check once published', async () => {
    const ws = await t.workspace();
    const confirmed = await findArticle(t.db, ws.workspaceId, await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/a', { live_confirmed_at: t.clock.now() }));
    expect(healthReport(confirmed, { internalLinksOut: 1, now: t.clock.now() })).toEqual({ score: 100, issues: [] });
    // 5 checks of 20 apply; no internal link: 80.
    expect(healthReport(confirmed, { internalLinksOut: 0, now: t.clock.now() })).toEqual({
      score: 80,
      issues: [{ check: 'internalLinks', message: 'no internal links to other pages of the site' }],
    });

    const broken = await findArticle(t.db, ws.workspaceId, await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/b', { live_check_error: 'answered 404' }));
    expect(healthReport(broken, { internalLinksOut: 1, now: t.clock.now() }).issues).toEqual([{ check: 'live', message: 'the live URL did not render the article: answered 404' }]);

    const noAddress = await findArticle(t.db, ws.workspaceId, await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'unused', { url: null }));
    expect(healthReport(noAddress, { internalLinksOut: 1, now: t.clock.now() })).toEqual({
      score: 80,
      issues: [{ check: 'live', message: 'delivered without an address: the receiver returned no URL' }],
    });

    // Published, render check not run yet: 4 checks apply and all are met.
    const pending = await findArticle(t.db, ws.workspaceId, await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/c'));
    expect(healthReport(pending, { internalLinksOut: 0, now: t.clock.now() }).score).toBe(75);
  });
});

describe('get_content_optimizer', () => {
  it('answers the citability report and health of a written article', async () => {
    const { ws, id } = await article({ markdown: FULL, faq: FAQ });
    const answer = await t.rest(ws.key, 'GET', '/api/v1/content/optimizer', { contentId: id });
    expect(answer.status).toBe(200);
    const data = answer.body.data as { contentId: string; status: string; citability: { score: number; points: unknown[] }; health: { score: number } };
    expect(data.contentId).toBe(id);
    expect(data.status).toBe('draft');
    expect(data.citability.score).toBe(100);
    expect(data.citability.points).toHaveLength(7);
    expect(data.health).toEqual({ score: 100, issues: [] });
  });

  it('reads the target word count from the article policy', async () => {
    const { ws, id } = await article({ word_count: 700 });
    const before = await t.rest(ws.key, 'GET', '/api/v1/content/optimizer', { contentId: id });
    expect((before.body.data as { health: { issues: unknown[] } }).health.issues).toEqual([{ check: 'wordCount', message: '700 words; the target is 1500 (at least 1200)' }]);
    await t.db.insertInto('article_policies').values({ workspace_id: ws.workspaceId, policy: JSON.stringify({ targetWordCount: 800 }), updated_at: t.clock.now() }).execute();
    const after = await t.rest(ws.key, 'GET', '/api/v1/content/optimizer', { contentId: id });
    expect((after.body.data as { health: { score: number } }).health.score).toBe(100);
  });

  it('answers 400 naming contentId for a planned article', async () => {
    const { ws, id } = await article({ markdown: null, status: 'planned', written_at: null });
    const answer = await t.rest(ws.key, 'GET', '/api/v1/content/optimizer', { contentId: id });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^contentId: .*not written yet/);
  });

  it("answers 404 for another workspace's article", async () => {
    const { id } = await article({});
    const other = await t.workspace();
    expect((await t.rest(other.key, 'GET', '/api/v1/content/optimizer', { contentId: id })).status).toBe(404);
  });
});
