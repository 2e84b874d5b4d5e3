import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/**
 * Where the test host page seems to live: the test answers this address itself, so nothing is served. https, as a web
 * host is: a secure context, which Chromium requires of a page before it may ask to reach the service on loopback.
 */
export const HOST_URL = 'https://host.test/';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The host page: hostPage.browser.js with the MCP client and the ext-apps AppBridge it imports, bundled for the browser into one inline script. */
export async function hostPage(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: ROOT,
    build: { write: false, minify: false, lib: { entry: 'test/mcp/hostPage.browser.js', formats: ['iife'], name: 'appHost' } },
  });
  const outputs = Array.isArray(result) ? result : [result];
  const chunk = outputs.flatMap((output) => ('output' in output ? output.output : [])).find((file) => file.type === 'chunk');
  if (chunk === undefined || chunk.type !== 'chunk') throw new Error('vite built no script for the test host');
  const script = chunk.code.replaceAll('</script', '<\\/script');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test host</title><style>body{margin:0}</style></head><body><script>${script}</script></body></html>`;
}
