import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/exports/artifacts.js';
import { freePort } from '../support/harness.js';
import { copyCheckout } from './checkout.js';

const checkout = copyCheckout();
// The installed packages of this checkout: `npm ci` is the image-steps test's business.
symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

/** `npm start` in the copy; resolves once the service serves, with its output so far and the node process's id. */
async function npmStart(env: Record<string, string>) {
  const child = spawn('npm', ['start'], { cwd: checkout, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const until = Date.now() + 90_000;
  while (!/sightline is serving/.test(output)) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`npm start did not serve:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = Number(/"pid":(\d+)/.exec(output)?.[1]);
  return { output: () => output, pid, exited };
}

describe('npm start', () => {
  it('builds dist/ on a fresh clone, runs the compiled service with node, and stops gracefully with exit code 0 on SIGTERM', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATABASE_URL: join(checkout, 'data', 'sightline.db') };
    const first = await npmStart(env);
    expect(first.output()).toMatch(/dist\/ is missing or older than the sources: building/);
    expect(existsSync(join(checkout, 'dist', 'src', 'main.js'))).toBe(true);
    const key = /\b(slk_[0-9A-Za-z]+)\b/.exec(first.output())?.[1];
    const brand = await fetch(`http://127.0.0.1:${port}/api/v1/brand`, { headers: { authorization: `Bearer ${key}` } });
    expect(brand.status).toBe(200);
    // The process npm started is node running the compiled service itself (no tsx, no shell in between).
    expect(first.pid).toBeGreaterThan(0);
    process.kill(first.pid, 'SIGTERM');
    expect(await first.exited).toEqual([0, null]);
    expect(first.output()).toMatch(/shutting down: not ready any more/);

    // Built and unchanged: the next start does not build again.
    const second = await npmStart(env);
    expect(second.output()).not.toMatch(/building/);
    process.kill(second.pid, 'SIGTERM');
    expect(await second.exited).toEqual([0, null]);
  }, 180_000);
});
