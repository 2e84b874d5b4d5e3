import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../src/exports/artifacts.js';
import type { RunResult } from '../support/processes.js';

/** The package's `bin` entry, run as `npm install -g` would run it. */
const BINARY = join(ROOT, 'src/cli/sightline.mjs');

/** A home of its own: the stored logins live under XDG_CONFIG_HOME, and nothing from the machine's own env leaks in. */
export function cliHome(): { env: Record<string, string>; configDir: string } {
  const home = mkdtempSync(join(tmpdir(), 'sightline-cli-home-'));
  const configDir = join(home, 'config');
  return { env: { HOME: home, XDG_CONFIG_HOME: configDir, SIGHTLINE_URL: '', SIGHTLINE_API_KEY: '' }, configDir: join(configDir, 'sightline') };
}

export interface RunningCli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once the output (stdout and stderr) matches. */
  waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
  done: Promise<RunResult>;
}

export function startCli(args: readonly string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [BINARY, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = `${stdout}${stderr}`.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), check()));
  child.stderr!.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), check()));
  const done = once(child, 'close').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        void done.then(() => reject(new Error(`sightline ${args.join(' ')} ended without printing ${pattern}:\n${stdout}${stderr}`)));
      }),
    done,
  };
}

export const runCli = (args: readonly string[], env: Record<string, string>): Promise<RunResult> => startCli(args, env).done;
