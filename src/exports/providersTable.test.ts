import { describe, expect, it } from 'vitest';
import { declareProvider } from '../integrations/kit/declaration.js';
import { buildProvidersTable, PROVIDERS_END, PROVIDERS_START, withProvidersTable } from './providersTable.js';

const EXAMPLE = declareProvider({
  id: 'example',
  family: 'contact finder',
  label: 'Example',
  turnedOnBy: ['EXAMPLE_KEY'],
  settings: [
    { names: ['EXAMPLE_KEY', 'EXAMPLE_URL'], default: '—, `https://example.com`', meaning: 'The key | the address; see [Example](example.md)', secrets: ['EXAMPLE_KEY'] },
    { names: ['EXAMPLE_RPM'], default: '`60`', meaning: 'Requests a minute' },
  ],
  read: () => undefined,
});

describe('the providers table of the configuration page', () => {
  it('has a row per documented setting, marks the secrets and escapes pipes, between its markers', () => {
    expect(buildProvidersTable([EXAMPLE]).split('\n')).toEqual([
      PROVIDERS_START,
      '| Provider | Kind | Variable | Default | Meaning |',
      '|---|---|---|---|---|',
      '| Example | contact finder | `EXAMPLE_KEY` (secret), `EXAMPLE_URL` | —, `https://example.com` | The key \\| the address; see [Example](example.md) |',
      '| Example | contact finder | `EXAMPLE_RPM` | `60` | Requests a minute |',
      PROVIDERS_END,
    ]);
  });

  it('replaces only what lies between the markers, and refuses a page without them', () => {
    const page = `# Configuration\n\n${PROVIDERS_START}\nold rows\n${PROVIDERS_END}\n\nAfter.\n`;
    expect(withProvidersTable(page, 'NEW')).toBe('# Configuration\n\nNEW\n\nAfter.\n');
    expect(() => withProvidersTable('# Configuration\n', 'NEW')).toThrow(/lacks the markers/);
  });
});
