import { describe, expect, it } from 'vitest';
import { formInput } from '../../src/web/operations.js';
import { registry } from '../../tools/index.js';

describe('a posted form as an operation input', () => {
  const createDestination = registry.get('create_destination')!;

  it('maps dotted field names into the nested objects the operation declares, two levels deep', () => {
    const input = formInput(createDestination, { name: 'Blog', kind: 'webflow', 'webflow.collectionId': 'abc', 'webflow.fields.body': 'post-body', 'ghost.adminApiKey': '' }, 'UTC');
    expect(input).toEqual({ name: 'Blog', kind: 'webflow', webflow: { collectionId: 'abc', fields: { body: 'post-body' } } });
  });

  it("drops fields named after Object's own properties instead of following them", () => {
    const input = formInput(createDestination, { name: 'Blog', '__proto__.polluted': 'yes', 'constructor.prototype.polluted': 'yes', __proto__: 'x', 'toString.x': 'y' }, 'UTC');
    expect(input).toEqual({ name: 'Blog' });
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
