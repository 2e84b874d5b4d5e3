import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { chars, expectBadInput, expectMcpBadInput, getBrand, items, write } from './support.js';

const PATH = '/api/v1/brand/product';

const FULL = {
  name: 'Acme Dashboards',
  description: 'Self-serve dashboards for product teams.',
  url: 'https://acme.example/dashboards',
  features: ['Drag-and-drop charts', 'SQL mode'],
  pricing: 'from $49 a month',
  category: 'core_product',
  usps: ['Set up in five minutes'],
};

describe('write_brand_product', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  async function createProduct(ws: TestWorkspace, body: Record<string, unknown> = FULL): Promise<string> {
    const data = await write(t, ws.key, PATH, body);
    return data.productId as string;
  }

  it('creates a product with every field and lists it, with its link, in get_brand', async () => {
    const ws = await t.workspace();
    const data = await write(t, ws.key, PATH, FULL);
    expect(data.action).toBe('created');
    expect(data.productId).toMatch(/^prd_[0-9a-f]{24}$/);
    const now = new Date(t.clock.now()).toISOString();
    const brand = await getBrand(t, ws.key);
    expect(brand.products).toEqual([{ productId: data.productId, ...FULL, createdAt: now, updatedAt: now }]);
    expect(data.product).toEqual(brand.products[0]);
    expect(brand.links).toContainEqual({ label: 'Acme Dashboards', url: 'https://acme.example/dashboards', kind: 'product' });
  });

  it('creates a product from the required fields alone', async () => {
    const ws = await t.workspace();
    await createProduct(ws, { name: 'Setup service', description: 'We set it up for you.', category: 'service' });
    expect((await getBrand(t, ws.key)).products[0]).toMatchObject({ name: 'Setup service', url: null, features: [], pricing: null, usps: [], category: 'service' });
  });

  it('names each required field a create lacks, and creates nothing', async () => {
    const ws = await t.workspace();
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { description: 'd', category: 'product' }), 'name', 'is required when creating a product (no productId)');
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { name: 'n', category: 'product' }), 'description', 'is required when creating a product (no productId)');
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { name: 'n', description: 'd' }), 'category', 'is required when creating a product (no productId)');
    const all = await t.rest(ws.key, 'POST', PATH, { url: 'https://acme.example' });
    for (const field of ['name', 'description', 'category']) expectBadInput(all, field, 'is required when creating a product');
    expect((await getBrand(t, ws.key)).products).toEqual([]);
  });

  it('updates only the fields sent, replacing lists, and moves updatedAt', async () => {
    const ws = await t.workspace();
    const productId = await createProduct(ws);
    const created = (await getBrand(t, ws.key)).products[0]!;
    t.clock.advance(60_000);
    const data = await write(t, ws.key, PATH, { productId, features: ['Alerts'], pricing: '$99 a month flat' });
    expect(data.action).toBe('updated');
    const [product] = (await getBrand(t, ws.key)).products;
    expect(product).toEqual({ ...created, features: ['Alerts'], pricing: '$99 a month flat', updatedAt: new Date(t.clock.now()).toISOString() });
    expect(data.product).toEqual(product);
  });

  it('clears url and pricing on an empty string', async () => {
    const ws = await t.workspace();
    const productId = await createProduct(ws);
    await write(t, ws.key, PATH, { productId, url: '', pricing: '' });
    const brand = await getBrand(t, ws.key);
    expect(brand.products[0]).toMatchObject({ url: null, pricing: null, name: FULL.name });
    expect(brand.links.filter((link) => link.kind === 'product')).toEqual([]);
  });

  it('refuses an update that changes nothing', async () => {
    const ws = await t.workspace();
    const productId = await createProduct(ws);
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { productId }), 'body', 'send at least one product field');
  });

  it('deletes a product with productId and del: true', async () => {
    const ws = await t.workspace();
    const keep = await createProduct(ws);
    const productId = await createProduct(ws, { ...FULL, name: 'Old add-on', category: 'add_on' });
    expect(await write(t, ws.key, PATH, { productId, del: true })).toEqual({ action: 'deleted', productId });
    expect((await getBrand(t, ws.key)).products.map((p) => p.productId)).toEqual([keep]);
    expect((await t.rest(ws.key, 'POST', PATH, { productId, del: true })).status).toBe(404);
  });

  it('treats del: false as no delete', async () => {
    const ws = await t.workspace();
    const productId = await createProduct(ws);
    expect((await write(t, ws.key, PATH, { productId, del: false, name: 'Renamed' })).action).toBe('updated');
    expect((await getBrand(t, ws.key)).products[0]?.name).toBe('Renamed');
  });

  it('refuses del: true without productId, and del: true with other fields, naming them', async () => {
    const ws = await t.workspace();
    const productId = await createProduct(ws);
    const before = await getBrand(t, ws.key);
    expectBadInput(await t.rest(ws.key, 'POST', PATH, { del: true }), 'productId', 'is required to delete');
    const mixed = await t.rest(ws.key, 'POST', PATH, { productId, del: true, name: 'x', usps: [] });
    expectBadInput(mixed, 'name', 'must not be sent with del: true');
    expectBadInput(mixed, 'usps', 'must not be sent with del: true');
    expect(await getBrand(t, ws.key)).toEqual(before);
  });

  it("answers 404 for an unknown or another workspace's product and leaves it untouched", async () => {
    const owner = await t.workspace();
    const other = await t.workspace();
    const productId = await createProduct(owner);
    const before = await getBrand(t, owner.key);

    const update = await t.rest(other.key, 'POST', PATH, { productId, name: 'Hijacked' });
    expect(update.status).toBe(404);
    expect(update.body.error).toBe(`product ${productId} not found in this workspace`);
    expect((await t.rest(other.key, 'POST', PATH, { productId, del: true })).status).toBe(404);
    expect((await t.rest(owner.key, 'POST', PATH, { productId: 'prd_000000000000000000000000', name: 'x' })).status).toBe(404);

    expect(await getBrand(t, owner.key)).toEqual(before);
    expect((await getBrand(t, other.key)).products).toEqual([]);
  });

  it('accepts every field at its limit', async () => {
    const ws = await t.workspace();
    await createProduct(ws, {
      name: chars(200),
      description: chars(2000),
      category: 'product',
      pricing: chars(200),
      features: items(30, () => chars(200)),
      usps: items(20, () => chars(300)),
    });
    const [product] = (await getBrand(t, ws.key)).products;
    expect(product?.features).toHaveLength(30);
    expect(product?.usps).toHaveLength(20);
    expect(product?.usps[0]).toHaveLength(300);
  });

  describe('refuses bad input with a 400 naming the field, and changes nothing', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['a category not on the list', { category: 'bundle' }, 'category', 'must be one of core_product, add_on, service, product'],
      ['an ftp url', { url: 'ftp://acme.example/file' }, 'url', 'must be an absolute http(s) URL'],
      ['a url without scheme', { url: 'acme.example/product' }, 'url', 'must be an absolute http(s) URL'],
      ['an empty name', { name: '' }, 'name', 'must not be empty'],
      ['a 201-character name', { name: chars(201) }, 'name', 'must have at most 200 characters'],
      ['a 2001-character description', { description: chars(2001) }, 'description', 'must have at most 2000 characters'],
      ['31 features', { features: items(31) }, 'features', 'must have at most 30 items'],
      ['a 201-character feature', { features: [chars(201)] }, 'features[0]', 'must have at most 200 characters'],
      ['a 201-character pricing', { pricing: chars(201) }, 'pricing', 'must have at most 200 characters'],
      ['a number for pricing', { pricing: 49 }, 'pricing', 'must be a string'],
      ['21 usps', { usps: items(21) }, 'usps', 'must have at most 20 items'],
      ['a 301-character usp', { usps: ['ok', chars(301)] }, 'usps[1]', 'must have at most 300 characters'],
      ['an unknown field', { price: 49 }, 'price', 'is not a field of this operation'],
    ];

    it.each(cases)('%s', async (_name, bad, field, rule) => {
      const ws = await t.workspace();
      const productId = await createProduct(ws);
      const before = await getBrand(t, ws.key);
      t.clock.advance(1000);
      // A valid change rides along on an update, and the same bad field on a create must not create anything.
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { productId, features: ['Valid'], ...bad }), field, rule);
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { ...FULL, ...bad }), field, rule);
      expect(await getBrand(t, ws.key)).toEqual(before);
    });
  });

  describe('over MCP', () => {
    it('creates, updates and deletes a product', async () => {
      const ws = await t.workspace();
      const created = await t.mcpTool(ws.key, 'write_brand_product', FULL);
      expect(created.structuredContent.action).toBe('created');
      const productId = created.structuredContent.productId as string;
      const updated = await t.mcpTool(ws.key, 'write_brand_product', { productId, category: 'add_on' });
      expect(updated.structuredContent.product).toEqual((await getBrand(t, ws.key)).products[0]);
      expect((await t.mcpTool(ws.key, 'write_brand_product', { productId, del: true })).structuredContent).toEqual({ action: 'deleted', productId });
      expect((await getBrand(t, ws.key)).products).toEqual([]);
    });

    it('names a missing required field with status 400', async () => {
      const ws = await t.workspace();
      expectMcpBadInput(await t.mcpTool(ws.key, 'write_brand_product', { name: 'n', description: 'd' }), 'category', 'is required when creating a product (no productId)');
      expectMcpBadInput(await t.mcpTool(ws.key, 'write_brand_product', { del: true }), 'productId', 'is required to delete');
      expect((await getBrand(t, ws.key)).products).toEqual([]);
    });
  });
});
