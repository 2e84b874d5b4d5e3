import type { Clock } from '../clock.js';

/**
 * How long an authenticated API key is trusted without looking it up again. This bounds how late another instance
 * (another process on the same database) refuses a key revoked elsewhere: under a second, with room for a slow event
 * loop. The process that revokes a key forgets it at once.
 */
export const KEY_CACHE_TTL_MS = 500;
/**
 * After a revocation in this process, nothing is cached for this long: a look-up that ran while the revoking
 * transaction was still open (another PostgreSQL connection sees the key live until the commit) must not be kept.
 */
const SETTLE_MS = 1000;
const MAX_ENTRIES = 10_000;

// Process-wide, so that every service instance in the process forgets at once, whichever of them (or the operator's
// functions, called in the same process) revoked the key.
let generation = 0;
let lastRevocation = Number.NEGATIVE_INFINITY;

/** Called on every revocation (see revokeApiKeys): each cache in this process drops what it holds. */
export function forgetAuthenticatedKeys(): void {
  generation++;
  lastRevocation = performance.now();
}

/** When a look-up began, to decide whether its answer may be kept. */
export interface KeyLookup {
  at: number;
  generation: number;
  monotonicAt: number;
}

interface Entry<T> {
  value: T;
  readAt: number;
  generation: number;
}

/**
 * What recent successful key look-ups found, by key hash, for KEY_CACHE_TTL_MS of the injected clock (so tests move
 * time instead of sleeping). Refused keys are never kept: a new key works at once. Anything that changes what a
 * look-up answers for a live key (revocation today) must call forgetAuthenticatedKeys().
 */
export class AuthenticatedKeyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly clock: Clock) {}

  get(keyHash: string): T | undefined {
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (this.isFresh(entry, this.clock.now())) return entry.value;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** Taken before the database is asked, and handed to remember() with its answer. */
  lookupStarted(): KeyLookup {
    return { at: this.clock.now(), generation, monotonicAt: performance.now() };
  }

  remember(keyHash: string, value: T, lookup: KeyLookup): void {
    if (lookup.generation !== generation || lookup.monotonicAt - lastRevocation < SETTLE_MS) return;
    if (this.entries.size >= MAX_ENTRIES) this.dropStale();
    // The read time, not now: the key was known live at the look-up, and the entry expires counting from then.
    this.entries.set(keyHash, { value, readAt: lookup.at, generation: lookup.generation });
  }

  private isFresh(entry: Entry<T>, now: number): boolean {
    const age = now - entry.readAt;
    // A clock set back makes the age negative: that entry is not trusted either.
    return entry.generation === generation && age >= 0 && age < KEY_CACHE_TTL_MS;
  }

  private dropStale(): void {
    const now = this.clock.now();
    for (const [keyHash, entry] of this.entries) if (!this.isFresh(entry, now)) this.entries.delete(keyHash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
