import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/harness.js';
import { copyCheckout } from './checkout.js';

/**
 * The Dockerfile's build stage runs deploy/image-steps.sh; no container engine runs here, so this runs the same script
 * in a clean copy of the checkout and starts what it leaves, as the image's CMD does. Slow (npm ci compiles
 * better-sqlite3), so it runs when SIGHTLINE_IMAGE_STEPS_TEST=1, which .ci/run sets.
 */
const enabled = process.env.SIGHTLINE_IMAGE_STEPS_TEST === '1';
const checkout = enabled ? copyCheckout() : '';
afterAll(() => {
  if (enabled) rmSync(checkout, { recursive: true, force: true });
});

describe.skipIf(!enabled)('the image build steps (deploy/image-steps.sh), without Docker', () => {
  it('install, compile and prune a clean checkout into a directory whose compiled service starts, serves and stops', async () => {
    execFileSync('sh', ['deploy/image-steps.sh'], { cwd: checkout, stdio: 'pipe', timeout: 600_000 });
    expect(existsSync(join(checkout, 'dist', 'src', 'main.js'))).toBe(true);
    expect(existsSync(join(checkout, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    // Development packages are gone from what the image ships.
    expect(existsSync(join(checkout, 'node_modules', 'typescript'))).toBe(false);
    expect(existsSync(join(checkout, 'node_modules', 'vitest'))).toBe(false);

    const port = await freePort();
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: checkout,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: join(checkout, 'data', 'sightline.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit') as Promise<[number | null]>;
    const until = Date.now() + 30_000;
    while (!/sightline is serving/.test(output)) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`the built service did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const key = /\b(slk_[0-9A-Za-z]+)\b/.exec(output)?.[1];
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/brand`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  }, 900_000);
});
