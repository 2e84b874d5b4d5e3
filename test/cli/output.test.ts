import { describe, expect, it } from 'vitest';
import { dryRunText, readable, shellWord } from '../../src/cli/output.js';
import { SUMMARIES } from '../../src/cli/summaries.js';

describe('readable output', () => {
  it('prints records as key: value lines, lists of records as tables and nested records indented', () => {
    const text = readable({
      created: true,
      note: null,
      tags: ['a', 'b'],
      queries: [
        { id: 'qry_1', text: 'best crm', hidden: false },
        { id: 'qry_2', text: 'a very long query text that goes on and on well beyond the width of one table cell', hidden: true },
      ],
      usage: { used: 2, limit: 25 },
      empty: {},
    });
    expect(text.split('\n')).toEqual([
      'created: true',
      'note: -',
      'tags: a, b',
      'queries (2):',
      '  id     text                                              hidden',
      '  qry_1  best crm                                          false',
      '  qry_2  a very long query text that goes on and on well…  true',
      '  (text cut at 48 characters: --json prints it whole)',
      'usage:',
      '  used: 2',
      '  limit: 25',
      'empty:',
      '  (none)',
    ]);
  });

  it('ends a dry run with the command to confirm it, quoted for the shell and without the key', () => {
    const text = dryRunText(
      { dryRun: true, note: 'Would invite a@b.example.', seats: 1 },
      ['team', 'invite-member', '--email', 'a@b.example', '--key', 'slk_secret', '--note', "it's me", '--json', '--key=slk_other'],
    );
    expect(text).toBe(
      "Dry run: Would invite a@b.example.\n\nseats: 1\n\nNothing changed. To do it: sightline team invite-member --email a@b.example --note 'it'\\''s me' --confirm",
    );
    expect(shellWord('plain-word_1.0')).toBe('plain-word_1.0');
  });

  it('prints a formula once: a long text already shown, or the same on every row, is not repeated', () => {
    const formula = 'score = 100 x (0.40 x mentionRate + 0.30 x shareOfVoice + 0.20 x citationRate)';
    const definition = 'One day of checks against the brand and its competitors, scored each day and then averaged';
    const text = readable({
      definition: `A composite 0-100. ${formula}`,
      formula,
      points: [
        { date: '2026-11-01', score: 40, definition },
        { date: '2026-11-02', score: 45, definition },
      ],
    });
    expect(text.split('\n')).toEqual([
      `definition: A composite 0-100. ${formula}`,
      'formula: (as in definition above)',
      'points (2):',
      `  definition (every row): ${definition}`,
      '  date        score',
      '  2026-11-01  40',
      '  2026-11-02  45',
    ]);
  });

  it('wraps records in table cells instead of cutting them', () => {
    const share = { rate: 0.5, interval: { low: 0.0945, high: 0.9055 }, count: 1, of: 2, note: 'every character of this stays' };
    const text = readable({ subjects: [{ name: 'Acme', share }] });
    expect(text).not.toContain('…');
    expect(text.replace(/\s+/g, '')).toContain(JSON.stringify(share).replace(/\s+/g, ''));
    expect(text.split('\n').length).toBeGreaterThan(3);
  });
});

describe('summaries of long reports', () => {
  it('summarises crawler access: the refused crawlers by name, the others counted per category', () => {
    const crawler = (token: string, category: string, robotsAllowed: boolean, reachable: boolean) => ({
      token,
      operator: 'Op',
      category,
      userAgent: `Mozilla/5.0 (compatible; ${token}/1.0)`,
      robotsAllowed,
      homeStatus: reachable ? 200 : 403,
      homeError: null,
      reachable,
    });
    const summary = SUMMARIES.get_crawler_access!({
      definition: 'Crawler access.',
      home: 'https://acme.example/',
      robots: { url: 'https://acme.example/robots.txt', status: 'found', httpStatus: 200, error: null },
      summary: { crawlers: 4, robotsAllowed: 3, reachable: 3, blockedByServer: 1 },
      crawlers: [crawler('GPTBot', 'training', false, true), crawler('ClaudeBot', 'training', true, true), crawler('PerplexityBot', 'search_index', true, false), crawler('OAI-SearchBot', 'search_index', true, true)],
    });
    expect(summary.crawlers).toBeUndefined();
    expect(summary.summary).toEqual({ crawlers: 4, robotsAllowed: 3, reachable: 3, blockedByServer: 1 });
    expect(summary.byCategory).toEqual([
      { category: 'training', crawlers: 2, robotsAllowed: 1, reachable: 2 },
      { category: 'search_index', crawlers: 2, robotsAllowed: 2, reachable: 1 },
    ]);
    expect((summary.refused as Array<{ token: string }>).map((row) => row.token)).toEqual(['GPTBot', 'PerplexityBot']);
  });
});
