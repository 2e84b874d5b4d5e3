import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../src/exports/artifacts.js';

/** A clean copy of the checkout, as a fresh clone would be: tracked files and new ones git does not ignore, nothing built. */
export function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-checkout-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((f) => f !== '');
  for (const file of files) {
    // A file deleted in the work tree but still in the index is not part of the checkout.
    if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(dir, file), { recursive: false, force: true });
  }
  return dir;
}

