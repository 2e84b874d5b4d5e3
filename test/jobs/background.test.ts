import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { areaSweeps, JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JOB_KINDS } from '../../src/jobs/queue.js';
import type { Services } from '../../src/outsideServices.js';

describe("the areas' background work", () => {
  it('handles every job kind, each by one area', () => {
    expect(Object.keys(JOB_HANDLERS).sort()).toEqual([...JOB_KINDS].sort());
    for (const kind of JOB_KINDS) expect(typeof JOB_HANDLERS[kind].run).toBe('function');
  });

  it('gives each sweep its own claim name and a pace', async () => {
    const database = await openDatabase(':memory:');
    const config = loadConfig({});
    // Listing the sweeps runs none of them, so no provider is reached.
    const sweeps = areaSweeps({ db: database.db, clock: systemClock, services: {} as Services, logger: pino({ level: 'silent' }), config });
    expect(new Set(sweeps.map((sweep) => sweep.name)).size).toBe(sweeps.length);
    expect(sweeps.map((sweep) => sweep.name).sort()).toEqual(
      ['autopilot', 'backlink-syncs', 'backlink-verify', 'cdn-polls', 'counter-salts', 'link-network-match', 'outreach-discovery', 'outreach-replies', 'social-search', 'weekly-checks', 'weekly-digest'],
    );
    expect(sweeps.find((sweep) => sweep.name === 'outreach-replies')?.everyMs).toBe(config.mail.imapPollMs);
    for (const sweep of sweeps) expect(sweep.everyMs).toBeGreaterThan(0);
    await database.close();
  });
});
