import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEntry } from './support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sightline-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('first start', () => {
  it('creates a workspace and an all-scope key on an empty database, prints it once, and serves it', async () => {
    const env = { DATABASE_URL: join(dir, 'data', 'sightline.db'), PORT: '0', BOOTSTRAP_SITE_URL: 'https://first.example' };
    const first = await startEntry('src/main.ts', env, /sightline is serving/);
    try {
      const output = first.output();
      const key = /\b(slk_[0-9A-Za-z]+)\b/.exec(output)?.[1];
      expect(key).toBeDefined();
      expect(output).toContain(`curl -H "Authorization: Bearer ${key}"`);
      expect(output).toContain('"mcpServers"');
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const brand = await fetch(`${url}/api/v1/brand`, { headers: { authorization: `Bearer ${key}` } });
      expect(brand.status).toBe(200);
      expect(((await brand.json()) as { data: { identity: { websiteUrl: string } } }).data.identity.websiteUrl).toBe('https://first.example');
      const billing = await fetch(`${url}/api/v1/team`, { headers: { authorization: `Bearer ${key}` } });
      expect(billing.status).toBe(200);
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
