import { join } from 'node:path';
import type { Command } from 'commander';
import { COMMONCRAWL_BASE_URL, DEFAULT_COMMONCRAWL_DIR, isReleaseName, releaseFilesIn } from '../backlinks/commoncrawl/release.js';
import { systemClock } from '../clock.js';
import { OperatorError } from '../operator.js';
import { report, withDatabase } from './common.js';

/** The download reports its progress every this many bytes. */
const PROGRESS_STEP = 2 ** 30;

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}

interface LoadOptions {
  dir?: string;
  download?: boolean;
  ranks?: boolean;
  baseUrl?: string;
  json?: boolean;
}

/** `admin commoncrawl load`: the free tier of referring domains, from a Common Crawl web graph release on disk. */
export function registerCommonCrawlCommands(admin: Command): void {
  const commoncrawl = admin.command('commoncrawl').description('referring domains from a Common Crawl web graph release (the free tier)');

  commoncrawl
    .command('load')
    .description("read a release's domain graph and store the referring domains of every workspace's site and its competitors' sites")
    .argument('<release>', 'the release, as Common Crawl names it (e.g. cc-main-2025-jun-jul-aug)')
    .option('--dir <path>', 'the folder holding the release files (default: ./data/commoncrawl/<release>)')
    .option('--download', 'download the release files into that folder first (about 17 GB; an interrupted download resumes)')
    .option('--ranks', 'also read the ranks file (about 2 GB more), so each referring domain carries its harmonic-centrality position')
    .option('--base-url <url>', 'where releases are downloaded from (a mirror)')
    .option('--json', 'print one JSON object')
    .action(async (release: string, options: LoadOptions) => {
      // DuckDB's native module is loaded only when a release is read.
      const [{ loadCommonCrawlRelease }, { downloadRelease }] = await Promise.all([import('../backlinks/commoncrawl/load.js'), import('../backlinks/commoncrawl/download.js')]);
      if (!isReleaseName(release)) throw new OperatorError(`${release} is not a Common Crawl web graph release name (like cc-main-2025-jun-jul-aug)`);
      const dir = options.dir ?? join(DEFAULT_COMMONCRAWL_DIR, release);
      const files = releaseFilesIn(dir, release, options.ranks === true);
      if (options.download) {
        if (!options.json) process.stderr.write(`downloading ${release} into ${dir} (the edges file alone is about 16 GB)\n`);
        let reported = 0;
        await downloadRelease(options.baseUrl ?? COMMONCRAWL_BASE_URL, release, files, {
          onProgress: (url, bytes, total) => {
            if (options.json || bytes - reported < PROGRESS_STEP) return;
            reported = bytes;
            process.stderr.write(`${url.pathname.split('/').pop()}: ${gib(bytes)}${total === undefined ? '' : ` of ${gib(total)}`}\n`);
          },
          onFile: (url, outcome) => {
            reported = 0;
            if (!options.json) process.stderr.write(`${url.href}: ${outcome.present ? 'already downloaded' : `${gib(outcome.bytes)} downloaded`}\n`);
          },
        });
      }
      const summary = await withDatabase(({ db }) => loadCommonCrawlRelease(db, systemClock, { release, files }));
      const count = (t: { domain: string; inGraph: boolean; referringDomains: number }) => `${t.domain} ${t.inGraph ? `${t.referringDomains} referring domains` : 'not in the graph'}`;
      const lines = summary.workspaces.map(
        (w) => `${w.workspaceId} (${w.name}): ${count(w.site)}${w.competitors.length > 0 ? `; competitors: ${w.competitors.map(count).join(', ')}` : ''}`,
      );
      report(options.json, { ...summary }, [`release ${release} loaded for ${summary.workspaces.length} workspace(s)${summary.ranked ? ', with ranks' : ''}`, ...lines].join('\n'));
    });
}
