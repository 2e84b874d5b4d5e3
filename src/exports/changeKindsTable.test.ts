import { describe, expect, it } from 'vitest';
import { buildChangeKindsTable, CHANGE_KINDS_BLOCK, withChangeKindsTable } from './changeKindsTable.js';

describe("the README's table of change kinds", () => {
  it('has a row per kind with its severity, definition and rule, pipes escaped, between its markers', () => {
    const table = buildChangeKindsTable({
      'example.moved': { severity: 'warning', definition: 'A | B moved.', threshold: { meaning: 'points', default: 5, min: 0, max: 100 }, perEngine: true, perQuery: true },
      'example.failed': { severity: 'critical', definition: 'It failed.', perEngine: false, perQuery: false },
    });
    expect(table.split('\n')).toEqual([
      CHANGE_KINDS_BLOCK.start,
      '| Kind (and webhook event) | Severity | When | Rule |',
      '|---|---|---|---|',
      '| `example.moved` | warning | A \\| B moved. | on/off; threshold: points (default 5); only some engines and queries |',
      '| `example.failed` | critical | It failed. | on/off |',
      CHANGE_KINDS_BLOCK.end,
    ]);
    expect(withChangeKindsTable(`# Sightline\n${CHANGE_KINDS_BLOCK.start}\nold\n${CHANGE_KINDS_BLOCK.end}\nAfter.`, 'NEW')).toBe('# Sightline\nNEW\nAfter.');
    expect(() => withChangeKindsTable('# Sightline', 'NEW')).toThrow(/README.md lacks the markers/);
  });
});
