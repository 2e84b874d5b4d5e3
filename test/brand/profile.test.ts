import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { chars, expectBadInput, expectMcpBadInput, getBrand, write } from './support.js';

const PATH = '/api/v1/brand/profile';

describe('update_brand_profile', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('saves every profile field, upper-cases colors and stores the canonical locale', async () => {
    const ws = await t.workspace();
    t.clock.advance(1000);
    const data = await write(t, ws.key, PATH, {
      tone: 'journalistic',
      primaryColor: '#1a2b3c',
      secondaryColor: '#FFaa00',
      defaultLocale: 'en-us',
      flexibleScheduling: true,
      localBusiness: true,
      serviceArea: ' Greater Manchester ',
    });
    const brand = await getBrand(t, ws.key);
    expect(brand.profile).toEqual({
      tone: 'journalistic',
      primaryColor: '#1A2B3C',
      secondaryColor: '#FFAA00',
      defaultLocale: 'en-US',
      flexibleScheduling: true,
      localBusiness: true,
      serviceArea: 'Greater Manchester',
    });
    expect(data.profile).toEqual(brand.profile);
    expect(brand.meta.updatedAt).toBe(new Date(t.clock.now()).toISOString());
  });

  it('changes only the fields sent', async () => {
    const ws = await t.workspace();
    await write(t, ws.key, PATH, { tone: 'friendly', primaryColor: '#000000', flexibleScheduling: true });
    await write(t, ws.key, PATH, { localBusiness: true, defaultLocale: 'ES-419' });
    expect((await getBrand(t, ws.key)).profile).toEqual({
      tone: 'friendly',
      primaryColor: '#000000',
      secondaryColor: null,
      defaultLocale: 'es-419',
      flexibleScheduling: true,
      localBusiness: true,
      serviceArea: null,
    });
    await write(t, ws.key, PATH, { flexibleScheduling: false });
    expect((await getBrand(t, ws.key)).profile).toMatchObject({ flexibleScheduling: false, localBusiness: true, tone: 'friendly' });
  });

  it('clears serviceArea on an empty string', async () => {
    const ws = await t.workspace();
    await write(t, ws.key, PATH, { serviceArea: 'Leeds' });
    expect((await getBrand(t, ws.key)).profile.serviceArea).toBe('Leeds');
    await write(t, ws.key, PATH, { serviceArea: '' });
    expect((await getBrand(t, ws.key)).profile.serviceArea).toBeNull();
  });

  it('accepts a serviceArea of exactly 100 characters', async () => {
    const ws = await t.workspace();
    await write(t, ws.key, PATH, { serviceArea: chars(100) });
    expect((await getBrand(t, ws.key)).profile.serviceArea).toBe(chars(100));
  });

  it('leaves everything as it was for an empty body', async () => {
    const ws = await t.workspace();
    const before = await getBrand(t, ws.key);
    t.clock.advance(1000);
    const data = await write(t, ws.key, PATH, {});
    expect(data.profile).toEqual(before.profile);
    expect(await getBrand(t, ws.key)).toEqual(before);
  });

  describe('refuses bad input with a 400 naming the field, and changes nothing', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['a tone not on the list', { tone: 'sarcastic' }, 'tone', 'must be one of professional, conversational, technical, friendly, journalistic, persuasive'],
      ['a color name', { primaryColor: 'red' }, 'primaryColor', 'must be a hex color of the form #RRGGBB'],
      ['a short hex color', { primaryColor: '#fff' }, 'primaryColor', 'must be a hex color of the form #RRGGBB'],
      ['a hex color without #', { secondaryColor: '1A2B3C' }, 'secondaryColor', 'must be a hex color of the form #RRGGBB'],
      ['a non-hex digit', { secondaryColor: '#1A2B3G' }, 'secondaryColor', 'must be a hex color of the form #RRGGBB'],
      ['an unsupported locale', { defaultLocale: 'xx-YY' }, 'defaultLocale', 'must be a supported BCP-47 tag'],
      ['an empty locale', { defaultLocale: '' }, 'defaultLocale', 'must not be empty'],
      ['a string for flexibleScheduling', { flexibleScheduling: 'yes' }, 'flexibleScheduling', 'must be true or false'],
      ['a number for localBusiness', { localBusiness: 1 }, 'localBusiness', 'must be true or false'],
      ['a 101-character serviceArea', { serviceArea: chars(101) }, 'serviceArea', 'must have at most 100 characters'],
      ['an unknown field', { font: 'Inter' }, 'font', 'is not a field of this operation'],
    ];

    it.each(cases)('%s', async (_name, bad, field, rule) => {
      const ws = await t.workspace();
      await write(t, ws.key, PATH, { tone: 'technical', primaryColor: '#111111', secondaryColor: '#222222', serviceArea: 'Bristol', defaultLocale: 'de-DE' });
      const before = await getBrand(t, ws.key);
      t.clock.advance(1000);
      // A valid change rides along with the bad field: it must not be applied either.
      expectBadInput(await t.rest(ws.key, 'POST', PATH, { localBusiness: true, ...bad }), field, rule);
      expect(await getBrand(t, ws.key)).toEqual(before);
    });
  });

  it('refuses bad input over MCP with status 400 and changes nothing', async () => {
    const ws = await t.workspace();
    expectMcpBadInput(await t.mcpTool(ws.key, 'update_brand_profile', { tone: 'friendly', primaryColor: 'blue' }), 'primaryColor', 'must be a hex color of the form #RRGGBB');
    expectMcpBadInput(await t.mcpTool(ws.key, 'update_brand_profile', { defaultLocale: 'klingon' }), 'defaultLocale', 'must be a supported BCP-47 tag');
    expect((await getBrand(t, ws.key)).profile).toMatchObject({ tone: null, primaryColor: null, defaultLocale: 'en' });
    const ok = await t.mcpTool(ws.key, 'update_brand_profile', { tone: 'friendly' });
    expect(ok.isError).toBe(false);
    expect(ok.structuredContent.profile).toEqual((await getBrand(t, ws.key)).profile);
  });
});
