import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../src/exports/artifacts.js';
import { runEntry, startEntry } from './support/processes.js';
import { Visitor } from './support/visitor.js';

const dir = mkdtempSync(join(tmpdir(), 'sightline-start-'));
/** The command-line line the README's Quick start shows after the curl example, with its `slk_…` placeholder. */
const readmeCliLine = /^SIGHTLINE_API_KEY=slk_… npx sightline brand get .*$/m.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[0];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('first start', () => {
  it('creates a workspace and an all-scope key on an empty database, prints it once, and serves it', async () => {
    // PUBLIC_URL as on a default start, so that the printed lines are the README's.
    const env = { DATABASE_URL: join(dir, 'data', 'sightline.db'), PORT: '0', PUBLIC_URL: 'http://127.0.0.1:8787', BOOTSTRAP_SITE_URL: 'https://first.example' };
    const first = await startEntry('src/main.ts', env, /sightline is serving/);
    try {
      const output = first.output();
      const key = /\b(slk_[0-9A-Za-z]+)\b/.exec(output)?.[1];
      expect(key).toBeDefined();
      expect(output).toContain(`curl -H "Authorization: Bearer ${key}"`);
      expect(output).toContain('"mcpServers"');
      expect(output).toContain(`${env.PUBLIC_URL}/docs\n`);
      expect(readmeCliLine).toBeDefined();
      expect(output).toContain(`  ${readmeCliLine!.replace('slk_…', key!)}\n`);
      const createUser = /npx sightline admin (create-user .*)$/m.exec(output)?.[1];
      expect(createUser).toBeDefined();
      const args = createUser!.replace("'<at least 10 characters>'", 'first-owner-password').split(' ');
      const created = await runEntry('src/cli/main.ts', ['admin', ...args], { DATABASE_URL: env.DATABASE_URL });
      expect(created.code, created.stderr).toBe(0);
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect((await fetch(`${url}/docs`)).status).toBe(200);
      const brand = await fetch(`${url}/api/v1/brand`, { headers: { authorization: `Bearer ${key}` } });
      expect(brand.status).toBe(200);
      expect(((await brand.json()) as { data: { identity: { websiteUrl: string } } }).data.identity.websiteUrl).toBe('https://first.example');
      const billing = await fetch(`${url}/api/v1/team`, { headers: { authorization: `Bearer ${key}` } });
      expect(billing.status).toBe(200);
      const signedIn = await new Visitor(url!).signIn('you@example.com', 'first-owner-password');
      expect(signedIn.status).toBe(303);
    } finally {
      first.child.kill('SIGTERM');
    }
    const second = await startEntry('src/main.ts', env, /sightline is serving/);
    try {
      expect(second.output()).not.toMatch(/slk_/);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
