import { describe, expect, it } from 'vitest';
import type { ProviderDeclaration } from './kit/declaration.js';
import { PROVIDERS as LISTED } from './providers.js';

const PROVIDERS: readonly ProviderDeclaration[] = LISTED;

describe('PROVIDERS', () => {
  it('has one declaration per id, each with a label', () => {
    const ids = PROVIDERS.map((provider) => provider.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const provider of PROVIDERS) expect(provider.label, provider.id).not.toBe('');
  });

  it('documents every setting that turns a provider on (in its own declaration, or in the one whose app it shares), every secret among its own settings, and each limit setting', () => {
    const documentedAnywhere = PROVIDERS.flatMap((provider) => provider.settings.flatMap((setting) => setting.names));
    for (const provider of PROVIDERS) {
      const documented = provider.settings.flatMap((setting) => setting.names);
      expect(documentedAnywhere, provider.id).toEqual(expect.arrayContaining([...provider.turnedOnBy]));
      for (const setting of provider.settings) expect(setting.names, provider.id).toEqual(expect.arrayContaining([...(setting.secrets ?? [])]));
      const perMinute = provider.limits?.requestsPerMinute;
      if (perMinute !== undefined) expect(documented, provider.id).toContain(perMinute.setting);
    }
  });

  it('names each variable in one declaration only', () => {
    const names = PROVIDERS.flatMap((provider) => provider.settings.flatMap((setting) => setting.names));
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('reads a provider that settings turn on as not configured from an empty environment (the CDN reads its endpoints always)', () => {
    for (const provider of PROVIDERS) {
      if (provider.turnedOnBy.length > 0 && provider.family !== 'cdn') expect(provider.read({}), provider.id).toBeUndefined();
    }
  });
});
