import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Stored credentials (Search Console refresh tokens, webhook signing secrets, the OAuth signing keys, and every
 * provider credential after them) sealed with AES-256-GCM under SECRETS_KEY, so that a database dump alone opens
 * none of them. A sealed value names the key that sealed it: `sealed:v1:<key id>:<iv>:<tag>:<ciphertext>`
 * (base64url), so older keys can still open what they sealed while a new key takes over.
 */
const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;

interface SealingKey {
  id: string;
  bytes: Buffer;
}

/** The first 8 hex characters of the key's SHA-256: names a key without revealing it. */
function keyId(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

/** A 256-bit key written as 64 hex characters or as base64 (44 characters with padding). */
export function parseSealingKey(name: string, value: string): Buffer {
  const text = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (bytes?.length !== 32) throw new Error(`${name}: must be 32 random bytes written as 64 hex characters or as base64 (for example the output of \`openssl rand -base64 32\`)`);
  return bytes;
}

export class CredentialSealer {
  private readonly current: SealingKey | undefined;
  private readonly byId = new Map<string, SealingKey>();

  /** `current` seals (undefined: credentials are stored as they are); `previous` only open what they sealed. */
  constructor(current: Buffer | undefined, previous: readonly Buffer[] = []) {
    for (const bytes of [...(current === undefined ? [] : [current]), ...previous]) this.byId.set(keyId(bytes), { id: keyId(bytes), bytes });
    this.current = current === undefined ? undefined : this.byId.get(keyId(current));
  }

  /** True when SECRETS_KEY is set. */
  get sealing(): boolean {
    return this.current !== undefined;
  }

  seal(plain: string): string {
    if (this.current === undefined) return plain;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.current.id}:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ciphertext.toString('base64url')}`;
  }

  /** The credential itself; a value stored before a key was set is returned as it is. */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, iv, tag, ciphertext] = stored.slice(PREFIX.length).split(':');
    const key = id === undefined ? undefined : this.byId.get(id);
    if (key === undefined) {
      throw new Error(`a stored credential is sealed with key ${id ?? '(none)'}, which is neither SECRETS_KEY nor one of SECRETS_KEY_PREVIOUS; set the key it was sealed with`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv ?? '', 'base64url'));
      decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`a stored credential sealed with key ${key.id} does not open: it was altered or damaged`);
    }
  }

  /** Already sealed with the current key (or, with no key set, stored as it is): re-sealing would change nothing. */
  isCurrent(stored: string): boolean {
    if (this.current === undefined) return !stored.startsWith(PREFIX);
    return stored.startsWith(`${PREFIX}${this.current.id}:`);
  }
}
