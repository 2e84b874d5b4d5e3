import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { systemClock } from '../../src/clock.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { startEntry } from '../support/processes.js';
import { Receiver, type ReceivedDelivery } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'sightline-outbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the delivery outbox', () => {
  it('loses nothing when the server dies between sending and recording: the next process sends it again, same webhook-id', async () => {
    const receiver = await Receiver.start();
    const env = { DATABASE_URL: join(dir, 'sightline.db'), PORT: '0', BOOTSTRAP_SITE_URL: 'https://acme.example', ALLOW_PRIVATE_TARGETS: '1', JOBS_POLL_MS: '50' };
    const database = openDatabase(env.DATABASE_URL);
    const first = await startEntry('src/main.ts', env, /sightline is serving/);
    try {
      const key = /\b(slk_[0-9A-Za-z]+)\b/.exec(first.output())![1]!;
      const baseUrl = /"url":"(http:\/\/[^"]+)"/.exec(first.output())![1]!;
      const call = async (path: string, body: Record<string, unknown>) => {
        const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(response.status).toBe(200);
        return ((await response.json()) as { data: Record<string, unknown> }).data;
      };
      const created = await call('/api/v1/destinations', { name: 'Site', endpointUrl: receiver.url('/hook'), siteUrl: receiver.origin });
      receiver.register('/hook', String(created.signingSecret));
      const { id: workspaceId } = await database.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
      const contentId = await insertPlannedArticle(database.db, systemClock, { workspaceId, keyword: 'dental crm', title: 'Dental CRM', scheduledAt: Date.now(), language: 'en' });
      await database.db.updateTable('articles').set({ status: 'draft', markdown: '# Dental CRM\n\nBooks appointments.', written_at: Date.now() }).where('id', '=', contentId).execute();

      // The first process sends the delivery; it is killed before the receiver answers, so it never records an outcome.
      receiver.reply('/hook', { hang: true }, { json: { ok: true, url: receiver.url('/blog/dental-crm') } });
      const arrived = new Promise<ReceivedDelivery>((resolve) => (receiver.onDelivery = resolve));
      await call('/api/v1/content/publish', { contentId, confirm: true });
      const sentFirst = await arrived;
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');

      const [delivery] = await database.db.selectFrom('deliveries').selectAll().execute();
      expect(delivery).toMatchObject({ state: 'pending', attempts: 1 });
      const job = await database.db.selectFrom('jobs').selectAll().where('subject_id', '=', delivery!.id).executeTakeFirstOrThrow();
      expect(job.state).toBe('running');
      // Time passes beyond the dead worker's lease.
      await database.db.updateTable('jobs').set({ lease_until: Date.now() - 1 }).where('id', '=', job.id).execute();

      const second = await startEntry('src/main.ts', env, /sightline is serving/);
      try {
        const done = await until('the delivery to be recorded', async () => {
          const row = await database.db.selectFrom('deliveries').selectAll().where('id', '=', delivery!.id).executeTakeFirstOrThrow();
          return row.state === 'pending' ? undefined : row;
        });
        expect(done).toMatchObject({ state: 'delivered', attempts: 2, returned_url: receiver.url('/blog/dental-crm') });
        const sent = receiver.at('/hook');
        expect(sent).toHaveLength(2);
        expect(sent[1]!.headers['webhook-id']).toBe(sentFirst.headers['webhook-id']);
        expect(sent[1]!.raw.equals(sentFirst.raw)).toBe(true);
        expect(receiver.problems).toEqual([]);
        const attempts = await database.db.selectFrom('delivery_attempts').select(['attempt', 'finished_at', 'outcome']).where('delivery_id', '=', delivery!.id).orderBy('attempt').execute();
        expect(attempts).toEqual([
          { attempt: 1, finished_at: null, outcome: null },
          { attempt: 2, finished_at: expect.any(Number), outcome: 'delivered' },
        ]);
        const { url } = await database.db.selectFrom('articles').select('url').where('id', '=', contentId).executeTakeFirstOrThrow();
        expect(url).toBe(receiver.url('/blog/dental-crm'));
      } finally {
        second.child.kill('SIGTERM');
        await once(second.child, 'exit');
      }
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await database.close();
      await receiver.close();
    }
  }, 60_000);
});
