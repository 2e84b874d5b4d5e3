/**
 * `npm run bench`, apps part: the size of each MCP Apps view (src/mcp/apps.ts) as a host receives it, whole and
 * gzipped. Aim: each under 200 KB gzipped (the budget; the views are a few KB). The last line of output is
 * `bench-result-apps {json}`.
 */
import { gzipSync } from 'node:zlib';
import { APP_VIEWS } from '../../src/mcp/apps.js';

const AIM_GZIP_BYTES = 200 * 1024;

export interface AppSize {
  uri: string;
  bytes: number;
  gzipBytes: number;
}

/** Measures every view, logs one line each, and answers whether all met the aim. */
export function appsBench(log: (message: string) => void): { rows: AppSize[]; aimBytes: number; met: boolean } {
  const rows = APP_VIEWS.map((view) => ({ uri: view.uri, bytes: Buffer.byteLength(view.html), gzipBytes: gzipSync(view.html).length }));
  log(`MCP Apps views (whole document, gzipped; aim < ${AIM_GZIP_BYTES} bytes gzipped each):`);
  for (const row of rows) log(`  ${row.uri.padEnd(34)} ${String(row.bytes).padStart(7)} bytes  ${String(row.gzipBytes).padStart(6)} gzipped  ${row.gzipBytes < AIM_GZIP_BYTES ? 'met' : 'NOT MET'}`);
  const met = rows.every((row) => row.gzipBytes < AIM_GZIP_BYTES);
  return { rows, aimBytes: AIM_GZIP_BYTES, met };
}
