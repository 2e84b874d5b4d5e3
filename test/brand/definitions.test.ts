import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../tools/index.js';
import type { JsonSchema } from '../../tools/registry.js';
import { TestService } from '../support/harness.js';

const WRITES = [
  ['update_brand_identity', '/api/v1/brand', 20, true],
  ['add_brand_guideline', '/api/v1/brand/guidelines', 20, false],
  ['set_brand_guideline_active', '/api/v1/brand/guidelines/active', 20, false],
  ['remove_brand_guideline', '/api/v1/brand/guidelines/remove', 20, true],
  ['write_brand_icp', '/api/v1/brand/icp', 20, true],
  ['write_brand_product', '/api/v1/brand/product', 20, true],
  ['update_brand_profile', '/api/v1/brand/profile', 20, true],
  ['confirm_brand_reviewed', '/api/v1/brand/reviewed', 10, false],
] as const;

/** Every keyword that makes a JSON-Schema union, anywhere in the schema. */
function unionKeywords(schema: unknown): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([key, value]) => [...(['anyOf', 'oneOf', 'allOf'].includes(key) ? [key] : []), ...unionKeywords(value)]);
}

describe('brand write definitions', () => {
  it.each(WRITES)('%s is POST %s, write:content, capped at %i', (operationId, path, cap, destructive) => {
    const operation = registry.get(operationId);
    expect(operation).toBeDefined();
    expect(operation).toMatchObject({ method: 'POST', path, scope: 'write:content', cap, confirm: 'none', toolset: 'brand' });
    expect(operation!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: destructive, openWorldHint: false });
    expect(typeof operation!.annotations.idempotentHint).toBe('boolean');
    expect(operation!.description.length).toBeLessThan(800);
  });

  it.each(WRITES)('%s takes a closed input schema with a description on every field and no unions', (operationId) => {
    const schema = registry.get(operationId)!.inputJsonSchema;
    expect(schema.additionalProperties).toBe(false);
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      expect(property.description, name).toEqual(expect.any(String));
    }
    expect(unionKeywords(schema)).toEqual([]);
  });

  it('marks confirm_brand_reviewed idempotent', () => {
    expect(registry.get('confirm_brand_reviewed')!.annotations.idempotentHint).toBe(true);
  });

  describe('on the MCP surface', () => {
    let t: TestService;
    beforeAll(async () => {
      t = await TestService.start();
    });
    afterAll(() => t.close());

    it('lists every brand write for a key with write:content, and none for a read-only key', async () => {
      const ws = await t.workspace();
      expect(await t.mcpToolNames(ws.key, '?toolsets=brand')).toEqual(expect.arrayContaining(WRITES.map(([id]) => id)));
      const readOnly = await t.key(ws.workspaceId, ['read:content']);
      expect(await t.mcpToolNames(readOnly, '?toolsets=brand')).toEqual(['get_brand']);
    });

    it('refuses a key without write:content with 403 and changes nothing', async () => {
      const ws = await t.workspace();
      const readOnly = await t.key(ws.workspaceId, ['read:content']);
      const answer = await t.rest(readOnly, 'POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: 'a', instead: 'b' });
      expect(answer.status).toBe(403);
      const brand = await t.rest(readOnly, 'GET', '/api/v1/brand');
      expect((brand.body.data as { guidelines: unknown[] }).guidelines).toEqual([]);
    });
  });
});
