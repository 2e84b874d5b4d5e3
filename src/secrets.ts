import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: session cookies, invite links, OAuth codes and tokens, device codes. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * How such tokens are stored: their SHA-256, hex. They carry 256 random bits, so a fast hash suffices, and a
 * database leak opens nothing.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
