import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './apiKeys.js';

describe('API key format', () => {
  it('has a recognisable prefix, 256 random bits and a checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^slk_[0-9A-Za-z]{49}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(generateApiKey()).not.toBe(key);
  });

  it('refuses a key whose checksum does not match (a typo) or whose shape is wrong', () => {
    const key = generateApiKey();
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    expect(isWellFormedApiKey(key.slice(0, -1) + last)).toBe(false);
    const body = key.at(10) === 'a' ? 'b' : 'a';
    expect(isWellFormedApiKey(key.slice(0, 10) + body + key.slice(11))).toBe(false);
    expect(isWellFormedApiKey('slk_short')).toBe(false);
    expect(isWellFormedApiKey(`ghp_${key.slice(4)}`)).toBe(false);
  });

  it('stores only a SHA-256 hash', () => {
    // FIPS 180-2 test vector for "abc".
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
