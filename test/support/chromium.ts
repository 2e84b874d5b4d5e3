import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (CHROMIUM_PATH overrides); .ci/run installs it when missing. A machine without it skips browser tests. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const hasChromium = existsSync(CHROMIUM);

/**
 * A headless Chromium with the background chatter (updates, sync, QUIC) off, so tests only see their own requests;
 * `extraArgs` go on its command line after those.
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}
