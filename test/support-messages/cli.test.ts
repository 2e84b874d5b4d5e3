import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { ManualClock } from '../../src/clock.js';
import { createSupportMessage } from '../../src/support/messages.js';
import { runEntry } from '../support/processes.js';

// The CLI is its own process with its own database, so this runs on a SQLite file whatever TEST_DATABASE_URL says.
const dir = mkdtempSync(join(tmpdir(), 'sightline-support-cli-'));
const file = join(dir, 'sightline.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function admin(...args: string[]): Promise<string> {
  const result = await runEntry('src/cli/main.ts', ['admin', ...args], { DATABASE_URL: file });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('cli: admin support list', () => {
  it('prints exactly one JSON object with the messages, newest first, filtered by workspace', { timeout: 60_000 }, async () => {
    const { workspaceId } = JSON.parse(await admin('create-workspace', '--name', 'Acme', '--site', 'https://acme.example', '--json')) as { workspaceId: string };
    const { workspaceId: otherId } = JSON.parse(await admin('create-workspace', '--name', 'Other', '--site', 'https://other.example', '--json')) as {
      workspaceId: string;
    };
    const handle = openDatabase(file);
    const clock = new ManualClock(Date.parse('2026-11-21T09:00:00.000Z'));
    const older = await createSupportMessage(handle.db, clock, { workspaceId, apiKeyId: null, message: 'first\nof two', subject: 'Hello' });
    clock.advance(1000);
    const newer = await createSupportMessage(handle.db, clock, { workspaceId, apiKeyId: 'key_x', message: 'second', contactEmail: 'ann@x.com' });
    clock.advance(1000);
    await createSupportMessage(handle.db, clock, { workspaceId: otherId, apiKeyId: null, message: 'elsewhere' });
    await handle.close();

    const stdout = await admin('support', 'list', '--workspace', workspaceId, '--json');
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toEqual({
      messages: [
        {
          messageId: newer.messageId,
          workspaceId,
          workspaceName: 'Acme',
          apiKeyId: 'key_x',
          subject: null,
          message: 'second',
          contactEmail: 'ann@x.com',
          receivedAt: '2026-11-21T09:00:01.000Z',
        },
        {
          messageId: older.messageId,
          workspaceId,
          workspaceName: 'Acme',
          apiKeyId: null,
          subject: 'Hello',
          message: 'first\nof two',
          contactEmail: null,
          receivedAt: '2026-11-21T09:00:00.000Z',
        },
      ],
    });

    const lines = (await admin('support', 'list', '--limit', '2')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^RECEIVED\s+WORKSPACE\s+FROM\s+SUBJECT\s+MESSAGE$/);
    expect(lines[1]).toContain('(Other)');
    expect(lines[2]).toContain('ann@x.com');
  });
});
