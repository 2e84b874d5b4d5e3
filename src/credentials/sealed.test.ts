import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialSealer, parseSealingKey } from './sealed.js';

const first = randomBytes(32);
const second = randomBytes(32);

describe('sealed credentials', () => {
  it('seal to a versioned value naming their key, which opens to the credential and never contains it', () => {
    const sealer = new CredentialSealer(first);
    const sealed = sealer.seal('whsec_correct-horse');
    expect(sealed).toMatch(/^sealed:v1:[0-9a-f]{8}:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain('correct-horse');
    expect(sealer.open(sealed)).toBe('whsec_correct-horse');
    // A fresh IV each time: equal credentials do not give equal values.
    expect(sealer.seal('whsec_correct-horse')).not.toBe(sealed);
  });

  it('open with a previous key while a new one seals, and tell which values are current', () => {
    const before = new CredentialSealer(first).seal('1//0g-refresh');
    const rotated = new CredentialSealer(second, [first]);
    expect(rotated.open(before)).toBe('1//0g-refresh');
    expect(rotated.isCurrent(before)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('x'))).toBe(true);
  });

  it('refuse a value sealed with a key that is not configured, naming the settings', () => {
    const sealed = new CredentialSealer(first).seal('secret');
    expect(() => new CredentialSealer(second).open(sealed)).toThrow(/neither SECRETS_KEY nor one of SECRETS_KEY_PREVIOUS/);
    expect(() => new CredentialSealer(undefined).open(sealed)).toThrow(/SECRETS_KEY/);
  });

  it('detect a value that was altered', () => {
    const sealer = new CredentialSealer(first);
    const sealed = sealer.seal('secret');
    const parts = sealed.split(':');
    const ciphertext = Buffer.from(parts[5]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 1;
    parts[5] = ciphertext.toString('base64url');
    expect(() => sealer.open(parts.join(':'))).toThrow(/was altered or damaged/);
  });

  it('pass plain text through: values stored before a key was set, and everything when no key is set', () => {
    expect(new CredentialSealer(first).open('whsec_plain')).toBe('whsec_plain');
    const none = new CredentialSealer(undefined);
    expect(none.sealing).toBe(false);
    expect(none.seal('whsec_plain')).toBe('whsec_plain');
    expect(none.isCurrent('whsec_plain')).toBe(true);
    expect(none.isCurrent(new CredentialSealer(first).seal('x'))).toBe(false);
  });

  it('read a key as 64 hex characters or base64, and refuse anything else naming the setting and the rule', () => {
    expect(parseSealingKey('SECRETS_KEY', first.toString('hex'))).toEqual(first);
    expect(parseSealingKey('SECRETS_KEY', first.toString('base64'))).toEqual(first);
    expect(() => parseSealingKey('SECRETS_KEY', 'too short')).toThrow(/^SECRETS_KEY: must be 32 random bytes written as 64 hex characters or as base64/);
    expect(() => parseSealingKey('SECRETS_KEY_PREVIOUS', randomBytes(16).toString('base64'))).toThrow(/^SECRETS_KEY_PREVIOUS:/);
  });
});
