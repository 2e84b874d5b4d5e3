import { join } from 'node:path';

/** Where Common Crawl publishes its web graph releases. */
export const COMMONCRAWL_BASE_URL = 'https://data.commoncrawl.org/projects/hyperlinkgraph';
/** Where `--download` puts a release's files when no folder is named (one folder per release beneath it). */
export const DEFAULT_COMMONCRAWL_DIR = './data/commoncrawl';

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
/**
 * Release names are rolling three-month windows named by the first month's year (`cc-main-2025-jun-jul-aug`); a
 * window across a new year carries both years (`cc-main-2024-25-dec-jan-feb`).
 */
const RELEASE_NAME = new RegExp(`^cc-main-\\d{4}(?:-\\d{2})?-${MONTH}-${MONTH}-${MONTH}$`);

export function isReleaseName(release: string): boolean {
  return RELEASE_NAME.test(release);
}

/** The files of a release's domain-level graph this service reads; `ranks` only when asked for. */
export interface ReleaseFiles {
  vertices: string;
  edges: string;
  ranks?: string;
}

export type ReleaseFileKind = keyof ReleaseFiles;

/** The published file name of one of a release's domain-graph files. */
export function releaseFileName(release: string, kind: ReleaseFileKind): string {
  return `${release}-domain-${kind}.txt.gz`;
}

/** The address of a release file under a base (Common Crawl's, or a mirror's). */
export function releaseFileUrl(baseUrl: string, release: string, kind: ReleaseFileKind): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}/${release}/domain/${releaseFileName(release, kind)}`);
}

/** The release's files in a local folder, named as Common Crawl names them. */
export function releaseFilesIn(dir: string, release: string, withRanks: boolean): ReleaseFiles {
  const files: ReleaseFiles = { vertices: join(dir, releaseFileName(release, 'vertices')), edges: join(dir, releaseFileName(release, 'edges')) };
  if (withRanks) files.ranks = join(dir, releaseFileName(release, 'ranks'));
  return files;
}
