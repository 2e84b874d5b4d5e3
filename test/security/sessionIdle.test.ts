import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { TestService } from '../support/harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// ASVS 3.3.2: a dashboard session ends after an idle period as well as at its absolute lifetime.
describe('dashboard sessions end when left idle', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('a session left for longer than the idle timeout (4 hours by default) leads back to sign-in', async () => {
    const owner = await t.signedInOwner();
    t.clock.advance(4 * HOUR + MINUTE);
    const answer = await owner.visitor.request(`/w/${owner.workspaceId}`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(`/w/${owner.workspaceId}`)}`);
  });

  it('a session in use stays, however long the day, until its 14 days are up', async () => {
    const owner = await t.signedInOwner();
    for (let hour = 0; hour < 14 * 24 - 3; hour += 3) {
      t.clock.advance(3 * HOUR);
      expect((await owner.visitor.request(`/w/${owner.workspaceId}`)).status, `after ${hour + 3} hours`).toBe(200);
    }
    t.clock.advance(3 * HOUR);
    expect((await owner.visitor.request(`/w/${owner.workspaceId}`)).status).toBe(303);
  });
});

describe('SESSION_IDLE_TIMEOUT_MINUTES', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ env: { SESSION_IDLE_TIMEOUT_MINUTES: '30' } });
  });
  afterAll(() => t.close());

  it('sets the idle timeout', async () => {
    const owner = await t.signedInOwner();
    t.clock.advance(29 * MINUTE);
    expect((await owner.visitor.request(`/w/${owner.workspaceId}`)).status).toBe(200);
    t.clock.advance(31 * MINUTE);
    expect((await owner.visitor.request(`/w/${owner.workspaceId}`)).status).toBe(303);
  });

  it('refuses a value outside 5 minutes to 14 days, naming the setting', () => {
    for (const value of ['0', '4', '20161', 'two hours']) {
      expect(() => loadConfig({ SESSION_IDLE_TIMEOUT_MINUTES: value })).toThrow(/^SESSION_IDLE_TIMEOUT_MINUTES: must be a whole number from 5 to 20160/);
    }
  });
});
