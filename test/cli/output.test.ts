import { describe, expect, it } from 'vitest';
import { dryRunText, readable, shellWord } from '../../src/cli/output.js';

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
});
