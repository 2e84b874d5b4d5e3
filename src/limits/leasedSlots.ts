import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { LimiterStoreUnavailableError, type ProviderSlots } from './store.js';

/** How a shared store keeps a provider's slots: each holder has a lease, so a slot held by a dead instance comes free. */
export interface SlotLedger {
  /** Takes a slot for `holder` when fewer than `limit` live leases exist; false when all are taken. */
  tryTake(provider: string, holder: string, limit: number, leaseMs: number): Promise<boolean>;
  renew(provider: string, holder: string, leaseMs: number): Promise<void>;
  give(provider: string, holder: string): Promise<void>;
}

/** Long enough that a busy event loop does not lose a lease between renewals, short enough that a crash frees it soon. */
const LEASE_MS = 30_000;
const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 500;

/**
 * Provider slots kept in a shared store. A waiting caller asks again after a short, growing, jittered pause (a slot
 * freed on another instance sends no signal here), and a running task renews its lease until it ends.
 */
export class LeasedSlots implements ProviderSlots {
  constructor(
    private readonly ledger: SlotLedger,
    private readonly storeName: string,
    private readonly provider: string,
    private readonly limit: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    const holder = randomUUID();
    await this.take(holder);
    const renewal = setInterval(() => {
      this.ledger.renew(this.provider, holder, LEASE_MS).catch(() => {});
    }, LEASE_MS / 3);
    try {
      return await task();
    } finally {
      clearInterval(renewal);
      // A slot not given back expires with its lease.
      await this.ledger.give(this.provider, holder).catch(() => {});
    }
  }

  private async take(holder: string): Promise<void> {
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      let taken: boolean;
      try {
        taken = await this.ledger.tryTake(this.provider, holder, this.limit, LEASE_MS);
      } catch (error) {
        throw new LimiterStoreUnavailableError(this.storeName, error);
      }
      if (taken) return;
      await sleep(wait * (0.5 + Math.random()));
    }
  }
}
