import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { WebflowSettings } from '../../config.js';
import { BadInputError, ServiceError } from '../../errors.js';
import type { Services } from '../../outsideServices.js';
import { loaderBootstrap, siteIdOf } from '../counter/loaderTag.js';
import { webflowToken } from './connection.js';
import { builderServiceError, DEFAULT_RETRY_AFTER_SECONDS } from './failures.js';
import { BuilderApiError } from './http.js';
import { finishInstall, startInstall } from './installs.js';
import { MAX_INLINE_SCRIPT_CHARS, type AppliedScript, type RegisteredScript, type WebflowApi, type WebflowSite } from '../../integrations/webflow/siteBuilder.js';
import { nameList } from '../../integrations/kit/declaration.js';
import { WEBFLOW } from '../../integrations/webflow/provider.js';

/** The name the loader is registered under; Webflow derives the script id from it, so every version shares one id. */
export const LOADER_DISPLAY_NAME = 'Sightline loader';

/** What an install needs of the operation's context. */
export interface InstallContext {
  db: Kysely<Database>;
  clock: Clock;
  workspaceId: string;
  publicUrl: string;
  services: Pick<Services, 'siteBuilders' | 'credentials'>;
}

/**
 * A semver version that follows the script's source: registered versions are immutable, so a changed loader (a new
 * PUBLIC_URL) needs a new version, and the same loader must map to the same version for a re-run to change nothing.
 * The patch number is the first 40 bits of the source's SHA-256.
 */
export function loaderScriptVersion(sourceCode: string): string {
  const patch = Number.parseInt(createHash('sha256').update(sourceCode).digest('hex').slice(0, 10), 16);
  return `1.0.${patch}`;
}

function settingsOf(ctx: InstallContext): WebflowSettings {
  const settings = ctx.services.siteBuilders.webflow;
  if (settings === undefined) throw new BadInputError(`${WEBFLOW.label} is not configured on this server: the operator sets ${nameList(WEBFLOW.turnedOnBy)} (a Webflow Data Client app)`);
  return settings;
}

const NOT_CONNECTED = 'Webflow is not connected to this workspace: an owner connects it on the Settings page of the dashboard';

/** What installing on a site would change, worked out from Webflow's current state. */
interface WebflowPlan {
  site: WebflowSite;
  sourceCode: string;
  version: string;
  /** This version, when it is already registered. */
  registered: RegisteredScript | undefined;
  /** Ids of every version of the loader registered on the site: an applied one is replaced, never doubled. */
  loaderIds: Set<string>;
  current: AppliedScript[];
  /** The current list already holds this version. */
  applied: boolean;
  /** Applied and published since: nothing to do. */
  live: boolean;
  /** Edits made on the site since its last publish, which a publish ships too. */
  unpublishedEdits: boolean;
}

const after = (time: string | null, than: string | null) => time !== null && (than === null || Date.parse(time) > Date.parse(than));

async function resolveSite(api: WebflowApi, siteId: string | undefined): Promise<WebflowSite> {
  if (siteId !== undefined) return api.site(siteId);
  const sites = await api.listSites();
  if (sites.length === 1) return api.site(sites[0]!.id);
  if (sites.length === 0) throw BadInputError.field('siteId', 'the Webflow connection authorizes no site: an owner connects Webflow again and picks the site');
  throw BadInputError.field('siteId', `required: the Webflow connection authorizes ${sites.length} sites: ${sites.map((s) => `${s.id} (${s.displayName})`).join(', ')}`);
}

async function planInstall(ctx: InstallContext, siteId: string | undefined): Promise<{ api: WebflowApi; plan: WebflowPlan }> {
  const settings = settingsOf(ctx);
  const token = await webflowToken(ctx.db, ctx.services.credentials, ctx.workspaceId);
  if (token === undefined) {
    // A named site of a workspace without a connection is not among its sites, as a foreign one would not be.
    if (siteId !== undefined) throw new ServiceError(404, `Webflow site ${siteId} not found in this workspace: ${NOT_CONNECTED}`);
    throw new BadInputError(NOT_CONNECTED);
  }
  const sourceCode = loaderBootstrap(ctx.publicUrl, await siteIdOf(ctx.db, ctx.workspaceId));
  if (sourceCode.length > MAX_INLINE_SCRIPT_CHARS) {
    throw new BadInputError(`the loader is ${sourceCode.length} characters, over Webflow's ${MAX_INLINE_SCRIPT_CHARS} for an inline script: the operator shortens PUBLIC_URL`);
  }
  const api = WEBFLOW.create(settings, token, ctx.clock);
  try {
    const site = await resolveSite(api, siteId);
    const [scripts, code] = await Promise.all([api.registeredScripts(site.id), api.customCode(site.id)]);
    const version = loaderScriptVersion(sourceCode);
    const loaders = scripts.filter((script) => script.displayName === LOADER_DISPLAY_NAME);
    const registered = loaders.find((script) => script.version === version);
    const applied = registered !== undefined && code.scripts.some((script) => script.id === registered.id && script.version === version);
    const live = applied && site.lastPublished !== null && !after(code.lastUpdated, site.lastPublished);
    return {
      api,
      plan: {
        site,
        sourceCode,
        version,
        registered,
        loaderIds: new Set(loaders.map((script) => script.id)),
        current: code.scripts,
        applied,
        live,
        unpublishedEdits: after(site.lastUpdated, site.lastPublished),
      },
    };
  } catch (error) {
    throw builderServiceError(error, ['Webflow site', siteId ?? '(the connected site)']);
  }
}

/** The app's script list with the loader's entry in place of any earlier version; everyone else's scripts kept as they are. */
function scriptsWithLoader(plan: WebflowPlan, loaderId: string): AppliedScript[] {
  const others = plan.current.filter((script) => script.id !== loaderId && !plan.loaderIds.has(script.id));
  return [...others, { id: loaderId, location: 'header', version: plan.version }];
}

function publishTargets(site: WebflowSite) {
  return { customDomains: site.customDomains.map((domain) => domain.id), publishToWebflowSubdomain: true };
}

const targetsText = (site: WebflowSite) => [...site.customDomains.map((domain) => domain.url), 'the webflow.io subdomain'].join(', ');

export interface WebflowDryRun {
  note: string;
  details: {
    siteId: string;
    siteName: string;
    scriptVersion: string;
    registerScript: boolean;
    applyScript: boolean;
    publish: boolean;
    keptScripts: string[];
    publishTo: string[];
    unpublishedEdits: boolean;
    lastPublished: string | null;
    lastUpdated: string | null;
  };
}

/** The dry run: what confirming would register, apply and publish, and that publishing ships every staged edit. */
export async function describeWebflowInstall(ctx: InstallContext, siteId: string | undefined): Promise<WebflowDryRun> {
  const { plan } = await planInstall(ctx, siteId);
  const { site } = plan;
  const kept = plan.current.filter((script) => !plan.loaderIds.has(script.id)).map((script) => `${script.id}@${script.version}`);
  const details = {
    siteId: site.id,
    siteName: site.displayName,
    scriptVersion: plan.version,
    registerScript: plan.registered === undefined,
    applyScript: !plan.applied,
    publish: !plan.live,
    keptScripts: kept,
    publishTo: [...site.customDomains.map((domain) => domain.url), 'webflow.io'],
    unpublishedEdits: plan.unpublishedEdits,
    lastPublished: site.lastPublished,
    lastUpdated: site.lastUpdated,
  };
  if (plan.live) return { note: `The tracking loader ${plan.version} is already live on the Webflow site "${site.displayName}": confirming changes nothing.`, details };
  const steps = [
    ...(plan.registered === undefined ? [`register the tracking loader as inline script "${LOADER_DISPLAY_NAME}" ${plan.version} (${plan.sourceCode.length} characters)`] : []),
    ...(plan.applied ? [] : [`apply it site-wide in the <head>${kept.length > 0 ? `, keeping the ${kept.length} other script(s) this app applied (${kept.join(', ')})` : ''}`]),
    `publish the site to ${targetsText(site)}`,
  ];
  const staged = plan.unpublishedEdits
    ? `The site has edits made since its last publish (last edited ${site.lastUpdated}, last published ${site.lastPublished ?? 'never'}): publishing ships them too.`
    : 'Publishing also ships any other edit staged on the site.';
  return {
    note: `With confirm: true this will ${steps.join(', then ')} on the Webflow site "${site.displayName}". Confirming publishes the customer's site: ${staged} Webflow allows one publish a minute.`,
    details,
  };
}

export interface WebflowInstallAnswer {
  installId: string;
  siteId: string;
  siteName: string;
  status: 'installed' | 'unchanged' | 'awaiting_publish';
  scriptId: string;
  scriptVersion: string;
  registered: boolean;
  applied: boolean;
  published: boolean;
  publishedAt: string | null;
  retryPublishAt: string | null;
  message: string;
}

/**
 * Registers the loader (unless this version is), applies it site-wide (unless it is), and publishes; each attempt is
 * recorded before the first call and finished with its outcome. A publish Webflow refuses with 429 (one a minute) leaves
 * the script applied and the attempt awaiting_publish with the time to retry; running the install again then publishes.
 */
export async function installWebflowLoader(ctx: InstallContext, siteId: string | undefined): Promise<WebflowInstallAnswer> {
  const { api, plan } = await planInstall(ctx, siteId);
  const { site } = plan;
  const base = { siteId: site.id, siteName: site.displayName, scriptVersion: plan.version };
  if (plan.live) {
    const installId = await startInstall(ctx.db, ctx.clock, { workspaceId: ctx.workspaceId, builder: 'webflow', target: site.id, scriptId: plan.registered!.id, scriptVersion: plan.version });
    await finishInstall(ctx.db, ctx.clock, installId, { status: 'unchanged', publishedAt: site.lastPublished === null ? null : Date.parse(site.lastPublished) });
    return {
      installId,
      ...base,
      status: 'unchanged',
      scriptId: plan.registered!.id,
      registered: false,
      applied: false,
      published: false,
      publishedAt: site.lastPublished,
      retryPublishAt: null,
      message: `The tracking loader ${plan.version} was already live on "${site.displayName}": nothing was changed.`,
    };
  }
  const installId = await startInstall(ctx.db, ctx.clock, {
    workspaceId: ctx.workspaceId,
    builder: 'webflow',
    target: site.id,
    scriptId: plan.registered?.id ?? null,
    scriptVersion: plan.version,
  });
  let scriptId = plan.registered?.id;
  try {
    scriptId ??= (await api.registerInlineScript(site.id, { sourceCode: plan.sourceCode, version: plan.version, displayName: LOADER_DISPLAY_NAME })).id;
    if (!plan.applied) await api.applyCustomCode(site.id, scriptsWithLoader(plan, scriptId));
  } catch (error) {
    await finishInstall(ctx.db, ctx.clock, installId, { status: 'failed', scriptId: scriptId ?? null, error: error instanceof Error ? error.message : String(error) });
    throw builderServiceError(error, ['Webflow site', site.id]);
  }
  const done = { installId, ...base, scriptId, registered: plan.registered === undefined, applied: !plan.applied };
  try {
    await api.publish(site.id, publishTargets(site));
  } catch (error) {
    if (error instanceof BuilderApiError && error.failure === 'rate_limited') {
      const retryAt = ctx.clock.now() + (error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS) * 1000;
      await finishInstall(ctx.db, ctx.clock, installId, { status: 'awaiting_publish', scriptId, retryPublishAt: retryAt, error: error.message });
      const retryIso = new Date(retryAt).toISOString();
      return {
        ...done,
        status: 'awaiting_publish',
        published: false,
        publishedAt: null,
        retryPublishAt: retryIso,
        message: `The loader is applied but Webflow refused the publish (one a minute): run this again with confirm: true after ${retryIso} to publish it.`,
      };
    }
    await finishInstall(ctx.db, ctx.clock, installId, { status: 'failed', scriptId, error: error instanceof Error ? error.message : String(error) });
    throw builderServiceError(error, ['Webflow site', site.id]);
  }
  const publishedAt = ctx.clock.now();
  await finishInstall(ctx.db, ctx.clock, installId, { status: 'installed', scriptId, publishedAt });
  return {
    ...done,
    status: 'installed',
    published: true,
    publishedAt: new Date(publishedAt).toISOString(),
    retryPublishAt: null,
    message: `The tracking loader ${plan.version} is applied site-wide on "${site.displayName}" and the site was published to ${targetsText(site)}.`,
  };
}
