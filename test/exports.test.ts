import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { committedContract, committedReferencePages, expectedArtifacts, ROOT } from '../src/exports/artifacts.js';
import { breakingChanges, buildContract } from '../src/exports/contract.js';
import { registry } from '../tools/index.js';

describe('generated files', () => {
  it('change the released contract (contract.json) by additions only, and say which field broke it otherwise', async () => {
    const released = await committedContract();
    expect(released, 'contract.json is missing: run npm run export').toBeDefined();
    expect(breakingChanges(released!, buildContract(registry))).toEqual([]);
  });

  it('mcp.json, openapi.json, contract.json, the operations table of docs/guide/operations.md, the CLI catalogue and docs/reference match the registry, the providers table of docs/guide/configuration.md the provider declarations, and the AI-crawler lists of packages/site and the WordPress plugin classify.ts (run npm run export)', async () => {
    for (const [file, expected] of Object.entries(await expectedArtifacts(registry))) {
      const committed = await readFile(`${ROOT}${file}`, 'utf8').catch(() => undefined);
      expect(committed, `${file} is missing: run npm run export`).toBeDefined();
      expect(committed, `${file} is stale: run npm run export`).toBe(expected);
    }
  });

  it('docs/reference has a page for each operation of the registry, its index, and no other page (run npm run export)', async () => {
    const expected = Object.keys(await expectedArtifacts(registry)).filter((file) => file.startsWith('docs/reference/'));
    expect(expected).toHaveLength(registry.operations.length + 1);
    expect((await committedReferencePages()).sort()).toEqual(expected.sort());
  });

  it('mcp.json is keyed by operationId with every field a host needs', async () => {
    const mcp = JSON.parse(await readFile(`${ROOT}mcp.json`, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(mcp).sort()).toEqual(registry.tools.map((op) => op.operationId).sort());
    for (const [name, tool] of Object.entries(mcp)) {
      expect(tool.name).toBe(name);
      for (const field of ['description', 'inputSchema', 'annotations', 'method', 'path', 'scope', 'cap', 'confirm']) expect(tool).toHaveProperty(field);
    }
  });
});
