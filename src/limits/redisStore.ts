import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { cached } from './memoryStore.js';
import { LeasedSlots, type SlotLedger } from './leasedSlots.js';
import { Limiter, type LimiterStore, type LimitRule, type ProviderSlots } from './store.js';

const KEY_PREFIX = 'sightline:';
/** A command Redis has not answered by then fails, and the call is answered 503 rather than left hanging. */
const COMMAND_TIMEOUT_MS = 2000;
const CONNECT_WAIT_MS = 5000;

// Expired leases go first; then a slot is taken when fewer than the limit remain. Redis's own clock, so that
// instances whose clocks differ agree on when a lease ends.
const TAKE_SLOT = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
  return 1
end
return 0`;

const RENEW_SLOT = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return 0`;

/** REDIS_URL: counters are rate-limiter-flexible's Redis limiter, provider slots a sorted set of leases per provider. */
export class RedisLimiterStore implements LimiterStore {
  readonly name = 'Redis at REDIS_URL';
  private readonly limiters = new Map<string, Limiter>();
  private readonly ledger: SlotLedger;

  private constructor(private readonly client: Redis) {
    const slotKey = (provider: string) => `${KEY_PREFIX}slots:${provider}`;
    this.ledger = {
      tryTake: async (provider, holder, limit, leaseMs) => (await client.eval(TAKE_SLOT, 1, slotKey(provider), limit, holder, leaseMs)) === 1,
      renew: async (provider, holder, leaseMs) => {
        await client.eval(RENEW_SLOT, 1, slotKey(provider), holder, leaseMs);
      },
      give: async (provider, holder) => {
        await client.zrem(slotKey(provider), holder);
      },
    };
  }

  /**
   * Connects, waiting a few seconds for Redis to answer; when it does not, the service starts anyway and answers 503
   * until it does (the client keeps reconnecting). Commands are never queued while disconnected: they fail at once.
   */
  static async connect(url: string, onProblem: (message: string, error?: unknown) => void): Promise<RedisLimiterStore> {
    const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS, lazyConnect: true });
    let lastError = '';
    client.on('error', (error: Error) => {
      // One line per kind of failure, not one per reconnection attempt.
      if (error.message !== lastError) onProblem('the Redis limiter store failed', error);
      lastError = error.message;
    });
    client.on('ready', () => {
      lastError = '';
    });
    client.connect().catch(() => {});
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(resolve, CONNECT_WAIT_MS, false).unref();
      client.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) onProblem(`Redis at REDIS_URL did not answer within ${CONNECT_WAIT_MS / 1000} s; calls are answered 503 until it does`);
    return new RedisLimiterStore(client);
  }

  limiter(rule: LimitRule): Limiter {
    return cached(this.limiters, rule, () =>
      new Limiter(
        rule,
        new RateLimiterRedis({ storeClient: this.client, keyPrefix: `${KEY_PREFIX}${rule.prefix}`, points: rule.points, duration: rule.durationSeconds, rejectIfRedisNotReady: true }),
        this.name,
      ),
    );
  }

  slots(provider: string, limit: number): ProviderSlots {
    return new LeasedSlots(this.ledger, this.name, provider, limit);
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
