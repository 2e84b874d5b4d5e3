import type { Kysely } from 'kysely';
import type { Database, SiteBuilder, SiteBuilderInstallStatus } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';

export const SITE_BUILDERS: readonly SiteBuilder[] = ['webflow', 'wix'];

/** One install attempt as readers show it; times are ISO strings. */
export interface SiteBuilderInstall {
  installId: string;
  /** The Webflow site id, or the Wix app instance id. */
  target: string;
  status: SiteBuilderInstallStatus;
  scriptId: string | null;
  scriptVersion: string | null;
  publishedAt: string | null;
  /** awaiting_publish: when Webflow accepts a publish again (running the install again then publishes). */
  retryPublishAt: string | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

/** Per builder: the latest attempt, and when the loader was last found or made live there (null: never). */
export interface SiteBuilderInstallState {
  latest: SiteBuilderInstall | null;
  installedAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

type InstallRow = Database['sitebuilder_installs'];

function toInstall(row: InstallRow): SiteBuilderInstall {
  return {
    installId: row.id,
    target: row.target,
    status: row.status,
    scriptId: row.script_id,
    scriptVersion: row.script_version,
    publishedAt: iso(row.published_at),
    retryPublishAt: iso(row.retry_publish_at),
    error: row.error,
    startedAt: iso(row.started_at)!,
    finishedAt: iso(row.finished_at),
  };
}

/** The workspace's install state on each builder (get_analytics_sources shows it). */
export async function readSiteBuilderInstalls(db: Kysely<Database>, workspaceId: string): Promise<Record<SiteBuilder, SiteBuilderInstallState>> {
  const state = {} as Record<SiteBuilder, SiteBuilderInstallState>;
  for (const builder of SITE_BUILDERS) {
    const latest = await db
      .selectFrom('sitebuilder_installs')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('builder', '=', builder)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const live = await db
      .selectFrom('sitebuilder_installs')
      .select('finished_at')
      .where('workspace_id', '=', workspaceId)
      .where('builder', '=', builder)
      .where('status', 'in', ['installed', 'unchanged'])
      .orderBy('finished_at', 'desc')
      .executeTakeFirst();
    state[builder] = { latest: latest === undefined ? null : toInstall(latest), installedAt: iso(live?.finished_at ?? null) };
  }
  return state;
}

/** What an attempt is about, written before the builder is called. */
export interface InstallStart {
  workspaceId: string;
  builder: SiteBuilder;
  target: string;
  scriptId?: string | null;
  scriptVersion?: string | null;
}

export interface InstallOutcome {
  status: Exclude<SiteBuilderInstallStatus, 'pending'>;
  scriptId?: string | null;
  scriptVersion?: string | null;
  publishedAt?: number | null;
  retryPublishAt?: number | null;
  error?: string | null;
}

/** Records an attempt as pending, before any call that changes the customer's site; answers its id. */
export async function startInstall(db: Kysely<Database>, clock: Clock, start: InstallStart): Promise<string> {
  const id = newId('sbi');
  await db
    .insertInto('sitebuilder_installs')
    .values({
      id,
      workspace_id: start.workspaceId,
      builder: start.builder,
      target: start.target,
      status: 'pending',
      script_id: start.scriptId ?? null,
      script_version: start.scriptVersion ?? null,
      published_at: null,
      retry_publish_at: null,
      error: null,
      started_at: clock.now(),
      finished_at: null,
    })
    .execute();
  return id;
}

/** Records how an attempt ended. */
export async function finishInstall(db: Kysely<Database>, clock: Clock, installId: string, outcome: InstallOutcome): Promise<void> {
  await db
    .updateTable('sitebuilder_installs')
    .set({
      status: outcome.status,
      ...(outcome.scriptId === undefined ? {} : { script_id: outcome.scriptId }),
      ...(outcome.scriptVersion === undefined ? {} : { script_version: outcome.scriptVersion }),
      published_at: outcome.publishedAt ?? null,
      retry_publish_at: outcome.retryPublishAt ?? null,
      error: outcome.error ?? null,
      finished_at: clock.now(),
    })
    .where('id', '=', installId)
    .execute();
}

/** The workspace that installed through this Wix app instance, if any: an instance serves one workspace. */
export async function wixInstanceOwner(db: Kysely<Database>, instanceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sitebuilder_installs')
    .select('workspace_id')
    .where('builder', '=', 'wix')
    .where('target', '=', instanceId)
    .where('status', 'in', ['installed', 'unchanged'])
    .orderBy('started_at')
    .executeTakeFirst();
  return row?.workspace_id;
}
