import { describe, expect, it } from 'vitest';
import { exampleInput, operationReference } from '../../adapters/reference.js';
import { referencePages } from '../../adapters/referenceMarkdown.js';
import { registry } from '../../tools/index.js';

describe('the generated API reference', () => {
  it("builds each operation's example input from its schema, and the operation accepts it", () => {
    for (const operation of registry.operations) {
      const parsed = operation.input.safeParse(exampleInput(operation));
      expect(parsed.success, `${operation.operationId}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('shows the REST, CLI and (for every operation that needs a credential) MCP example of each operation', () => {
    for (const operation of registry.operations) {
      const reference = operationReference(operation, 'https://sightline.example');
      expect(reference.examples.map((example) => example.surface)).toEqual(operation.scope === 'public' ? ['REST', 'CLI'] : ['REST', 'MCP', 'CLI']);
      expect(reference.examples[0]!.request).toContain(`https://sightline.example${operation.path}`);
      expect(reference.examples.at(-1)!.request).toMatch(new RegExp(`^sightline ${operation.toolset} `));
    }
  });

  it('links every page from the index', () => {
    const pages = referencePages(registry);
    const index = pages['docs/reference/README.md']!;
    for (const operation of registry.operations) expect(index).toContain(`](${operation.operationId}.md)`);
  });
});
