import type { WixSettings } from '../../config.js';
import { BadInputError, NotFoundError } from '../../errors.js';
import { loaderTag, siteIdOf } from '../counter/loaderTag.js';
import { builderServiceError } from './failures.js';
import { finishInstall, startInstall, wixInstanceOwner } from './installs.js';
import type { InstallContext } from './webflowInstall.js';
import type { WixApi, WixEmbeddedScript } from '../../integrations/wix/siteBuilder.js';
import { nameList } from '../../integrations/kit/declaration.js';
import { WIX } from '../../integrations/wix/provider.js';

/**
 * The code of the Embedded Script extension the operator adds to the Wix app: the loader tag with Wix's dynamic
 * parameters in place of the service's URL and the site id, which each install fills in. Built from loaderTag, so it is
 * the same tag every other install path adds.
 */
export const WIX_SCRIPT_TEMPLATE = loaderTag('{{serviceUrl}}', '{{siteId}}');

function settingsOf(ctx: InstallContext): WixSettings {
  const settings = ctx.services.siteBuilders.wix;
  if (settings === undefined) throw new BadInputError(`${WIX.label} is not configured on this server: the operator sets ${nameList(WIX.turnedOnBy)} (a Wix app with an Embedded Script extension)`);
  return settings;
}

/** A host without a leading www., for comparing a Wix site's URL with the workspace's website. */
const bareHost = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, '');

/** The values of the template's dynamic parameters (a type, not an interface, so it is also a map of strings). */
export type WixLoaderParameters = { serviceUrl: string; siteId: string };

interface WixPlan {
  api: WixApi;
  siteUrl: string;
  siteName: string | null;
  parameters: WixLoaderParameters;
  current: WixEmbeddedScript | null;
  unchanged: boolean;
}

const sameParameters = (a: Record<string, string>, b: WixLoaderParameters) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([key, value]) => a[key] === value);

/**
 * The lookups both the dry run and the install make. An instance id is not a secret a workspace proves it holds (Wix
 * warns not to trust one sent as plain text), so it must belong to a Wix site at the workspace's own website, and an
 * instance another workspace installed through stays that workspace's (404, as any object of another workspace).
 */
async function planInstall(ctx: InstallContext, instanceId: string): Promise<WixPlan> {
  const settings = settingsOf(ctx);
  const owner = await wixInstanceOwner(ctx.db, instanceId);
  if (owner !== undefined && owner !== ctx.workspaceId) throw new NotFoundError('Wix app instance', instanceId);
  const workspace = await ctx.db.selectFrom('workspaces').select('website_url').where('id', '=', ctx.workspaceId).executeTakeFirstOrThrow();
  const api = WIX.create(settings, instanceId, ctx.clock);
  try {
    const site = await api.site();
    if (site.url === null || !URL.canParse(site.url)) {
      throw BadInputError.field('instanceId', 'its Wix site has no published URL yet: publish the site once in Wix, then install');
    }
    if (bareHost(site.url) !== bareHost(workspace.website_url)) {
      throw BadInputError.field('instanceId', `belongs to the Wix site ${site.url}, not to this workspace's website ${workspace.website_url}`);
    }
    const parameters = { serviceUrl: ctx.publicUrl, siteId: await siteIdOf(ctx.db, ctx.workspaceId) };
    const current = await api.embeddedScript();
    const unchanged = current !== null && !current.disabled && sameParameters(current.parameters, parameters);
    return { api, siteUrl: site.url, siteName: site.displayName, parameters, current, unchanged };
  } catch (error) {
    throw builderServiceError(error, ['Wix app instance', instanceId]);
  }
}

export interface WixDryRun {
  note: string;
  details: { instanceId: string; siteUrl: string; embedded: boolean; disabled: boolean; embed: boolean; parameters: WixLoaderParameters };
}

export async function describeWixInstall(ctx: InstallContext, instanceId: string): Promise<WixDryRun> {
  const plan = await planInstall(ctx, instanceId);
  const details = {
    instanceId,
    siteUrl: plan.siteUrl,
    embedded: plan.current !== null,
    disabled: plan.current?.disabled ?? false,
    embed: !plan.unchanged,
    parameters: plan.parameters,
  };
  if (plan.unchanged) return { note: `The tracking loader is already embedded on the Wix site ${plan.siteUrl} with these parameters: confirming changes nothing.`, details };
  const was = plan.current === null ? 'The app has no script on the site yet.' : plan.current.disabled ? 'The app\'s script is there but turned off in the site\'s settings.' : 'The app\'s script is there with other parameters, which are replaced.';
  return {
    note: `With confirm: true the app's embedded script goes into the <head> of every page of the Wix site ${plan.siteUrl} with serviceUrl ${plan.parameters.serviceUrl} and siteId ${plan.parameters.siteId}, which makes it the service's loader tag. ${was} Wix serves it at once (no publish); sites with a cookie banner run it once visitors accept analytics.`,
    details,
  };
}

export interface WixInstallAnswer {
  installId: string;
  instanceId: string;
  siteUrl: string;
  siteName: string | null;
  status: 'installed' | 'unchanged';
  parameters: WixLoaderParameters;
  message: string;
}

/** Embeds the app's script with this workspace's parameters, recorded before the call and finished with its outcome. */
export async function installWixLoader(ctx: InstallContext, instanceId: string): Promise<WixInstallAnswer> {
  const plan = await planInstall(ctx, instanceId);
  const base = { instanceId, siteUrl: plan.siteUrl, siteName: plan.siteName, parameters: plan.parameters };
  const installId = await startInstall(ctx.db, ctx.clock, { workspaceId: ctx.workspaceId, builder: 'wix', target: instanceId });
  if (plan.unchanged) {
    await finishInstall(ctx.db, ctx.clock, installId, { status: 'unchanged' });
    return { installId, ...base, status: 'unchanged', message: `The tracking loader was already embedded on ${plan.siteUrl}: nothing was changed.` };
  }
  try {
    await plan.api.embedScript(plan.parameters);
  } catch (error) {
    await finishInstall(ctx.db, ctx.clock, installId, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
    throw builderServiceError(error, ['Wix app instance', instanceId]);
  }
  await finishInstall(ctx.db, ctx.clock, installId, { status: 'installed', publishedAt: ctx.clock.now() });
  return { installId, ...base, status: 'installed', message: `The tracking loader is embedded on every page of ${plan.siteUrl}.` };
}
