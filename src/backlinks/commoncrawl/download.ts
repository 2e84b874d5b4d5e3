import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { OperatorError } from '../../operator.js';
import { releaseFileUrl, type ReleaseFileKind, type ReleaseFiles } from './release.js';

/** Bytes of the file on disk so far, and its whole size when the server said. */
export type Progress = (bytes: number, total: number | undefined) => void;

/** A stalled transfer (no byte for this long) fails; what arrived stays for the next attempt to resume from. */
const STALL_MS = 120_000;

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

export interface DownloadOutcome {
  path: string;
  bytes: number;
  /** Already complete on disk: nothing was requested. */
  present: boolean;
}

/**
 * Streams a release file to `path`. The bytes go to `path.partial` first and the file takes its name only when
 * complete, so a complete-looking file is never half of one; an interrupted download resumes from the partial file
 * with a Range request (a server that ignores it answers 200, and the file is fetched whole again).
 */
export async function downloadReleaseFile(url: URL, path: string, onProgress: Progress = () => undefined): Promise<DownloadOutcome> {
  if (url.protocol !== 'https:') throw new OperatorError(`${url.href}: only https downloads are made`);
  const complete = await sizeOf(path);
  if (complete !== undefined) return { path, bytes: complete, present: true };
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  const already = (await sizeOf(partial)) ?? 0;
  const response = await request(url, {
    method: 'GET',
    headers: already > 0 ? { range: `bytes=${already}-` } : {},
    headersTimeout: STALL_MS,
    bodyTimeout: STALL_MS,
  }).catch((error: unknown) => {
    throw new OperatorError(`${url.href}: ${error instanceof Error ? error.message : String(error)}`);
  });
  // 416 with `bytes */<size>` equal to what is on disk: the last attempt received everything but stopped before the rename.
  if (response.statusCode === 416 && response.headers['content-range'] === `bytes */${already}`) {
    await response.body.dump();
    await rename(partial, path);
    return { path, bytes: already, present: false };
  }
  const resumed = response.statusCode === 206;
  if (response.statusCode !== 200 && !resumed) {
    await response.body.dump();
    const hint = response.statusCode === 404 ? ' (is the release name right?)' : response.headers.location ? ` (redirected to ${String(response.headers.location)}: use that base with --base-url)` : '';
    throw new OperatorError(`${url.href} answered ${response.statusCode}${hint}`);
  }
  const expected = Number(response.headers['content-length'] ?? Number.NaN);
  const start = resumed ? already : 0;
  const total = Number.isFinite(expected) ? start + expected : undefined;
  let received = start;
  response.body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    onProgress(received, total);
  });
  try {
    await pipeline(response.body, createWriteStream(partial, { flags: resumed ? 'a' : 'w' }));
  } catch (error) {
    throw new OperatorError(`${url.href}: the download stopped (${error instanceof Error ? error.message : String(error)}); run the command again to resume`);
  }
  const bytes = (await sizeOf(partial)) ?? 0;
  if (total !== undefined && bytes !== total) {
    throw new OperatorError(`${url.href}: ${bytes} of ${total} bytes on disk; run the command again to resume`);
  }
  await rename(partial, path);
  return { path, bytes, present: false };
}

/** Downloads each of a release's files from `baseUrl` (Common Crawl's or a mirror's), one after the other. */
export async function downloadRelease(
  baseUrl: string,
  release: string,
  files: ReleaseFiles,
  report: { onFile?: (url: URL, outcome: DownloadOutcome) => void; onProgress?: (url: URL, bytes: number, total: number | undefined) => void } = {},
): Promise<void> {
  if (!URL.canParse(baseUrl)) throw new OperatorError(`${baseUrl} is not a URL`);
  for (const [kind, path] of Object.entries(files) as Array<[ReleaseFileKind, string]>) {
    const url = releaseFileUrl(baseUrl, release, kind);
    const outcome = await downloadReleaseFile(url, path, (bytes, total) => report.onProgress?.(url, bytes, total));
    report.onFile?.(url, outcome);
  }
}
