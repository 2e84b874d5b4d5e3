import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { FakeSmtp } from '../outreach/fakes/mailServers.js';
import { runEntry } from '../support/processes.js';

// The CLI is its own process with its own database, so this runs on a SQLite file whatever TEST_DATABASE_URL says.
const dir = mkdtempSync(join(tmpdir(), 'sightline-digest-cli-'));
const file = join(dir, 'sightline.db');
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await FakeSmtp.start();
});
afterAll(async () => {
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = { DATABASE_URL: file, PUBLIC_URL: 'https://sightline.example' };
const mail = () => ({ ...base, SMTP_URL: `smtp://ada%40acme.example:smtp-secret@127.0.0.1:${smtp.port}`, MAIL_FROM: 'Sightline <digest@sightline.example>', MAIL_ALLOW_INSECURE: '1' });
const admin = (env: Record<string, string>, ...args: string[]) => runEntry('src/cli/main.ts', ['admin', ...args], env);

describe('cli: admin digest send', () => {
  it('sends a week\u2019s digest to a workspace\u2019s recipients once, again with --force, and refuses without SMTP settings', { timeout: 90_000 }, async () => {
    const created = await admin(base, 'create-workspace', '--name', 'Acme', '--site', 'https://acme.example', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { workspaceId } = JSON.parse(created.stdout) as { workspaceId: string };
    const user = await admin(base, 'create-user', '--email', 'owner@acme.example', '--password', 'long enough pw', '--workspace', workspaceId, '--role', 'owner', '--json');
    expect(user.code, user.stderr).toBe(0);

    const refused = await admin(base, 'digest', 'send', '--week', '2026-11-23', '--workspace', workspaceId);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('SMTP_URL');
    expect(refused.stderr).toContain('SMTP_HOST');
    expect(refused.stderr).toContain('MAIL_FROM');

    const neither = await admin(mail(), 'digest', 'send', '--week', '2026-11-23');
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--workspace <id> or --due');

    const sent = await admin(mail(), 'digest', 'send', '--week', '2026-11-25', '--workspace', workspaceId, '--json');
    expect(sent.code, sent.stderr).toBe(0);
    const answer = JSON.parse(sent.stdout) as { week: string; sends: Array<{ email: string; outcome: { state: string } }> };
    expect(answer.week).toBe('2026-11-23');
    expect(answer.sends.map((s) => [s.email, s.outcome.state])).toEqual([['owner@acme.example', 'sent']]);
    expect(smtp.received).toHaveLength(1);
    const parsed = await simpleParser(smtp.received[0]!.raw);
    const unsubscribe = parsed.headerLines.find((line) => line.key === 'list-unsubscribe')!.line.replace(/\r?\n[ \t]+/g, ' ');
    expect(unsubscribe).toMatch(/^List-Unsubscribe: <https:\/\/sightline\.example\/unsubscribe\/[A-Za-z0-9_-]+\?list=digest>$/);

    const again = await admin(mail(), 'digest', 'send', '--week', '2026-11-23', '--workspace', workspaceId);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("not sent owner@acme.example");
    expect(again.stdout).toContain('already sent');
    expect(smtp.received).toHaveLength(1);

    const forced = await admin(mail(), 'digest', 'send', '--week', '2026-11-23', '--workspace', workspaceId, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^sent owner@acme\.example/);
    expect(smtp.received).toHaveLength(2);

    const handle = openDatabase(file);
    try {
      const rows = await handle.db.selectFrom('digest_sends').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ workspace_id: workspaceId, week: '2026-11-23', state: 'sent', attempts: 2 });
    } finally {
      await handle.close();
    }
  });
});
