import type { Response } from 'express';
import type { analyticsSources } from '../../../analytics/sources.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { showAnalyticsPage } from './common.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Sources = Awaited<ReturnType<typeof analyticsSources>>;
type CrawlerSourceState = Sources['aiCrawlers']['sources'][number];
type HumanSourceState = Sources['humanTraffic']['sources'][number];


const CRAWLER_SOURCE_NAMES: Record<CrawlerSourceState['source'], string> = {
  site_hook: 'Site hook (your site’s serving code reports crawlers)',
  cms_plugin: 'CMS plugin',
  cdn: 'CDN (Cloudflare)',
};

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** Renders the sources page for the person on it; times in the workspace's zone. */
class SourcesView {
  constructor(
    private readonly res: Response,
    private readonly sources: Sources,
  ) {}

  private get current() {
    return this.res.locals.current!;
  }

  private time(value: string | null): SafeHtml {
    return formatTime(value, this.current.timeZone);
  }

  private settings(anchor: string, text: string): SafeHtml {
    return html`<a href="/w/${this.current.workspaceId}/settings#${anchor}">${text}</a>`;
  }

  private lastReport(state: { lastReportAt: string | null; reportedLast24h: boolean }): SafeHtml {
    return state.lastReportAt === null ? html`never reported` : html`last report ${this.time(state.lastReportAt)}${state.reportedLast24h ? ' (in the last 24 hours)' : ''}`;
  }

  private humanState(state: HumanSourceState): SafeHtml {
    if (state.source === 'own_counter') {
      return html`${this.lastReport(state)}; its tag is below.`;
    }
    if (state.provider === null) return html`Not connected: ${this.settings('site-analytics', 'connect Plausible, Umami or Google Analytics in the workspace settings')}.`;
    return html`${state.provider} connected ${this.time(state.connectedAt)}${state.lastError === null ? '' : html`; <span class="error">last read failed: ${state.lastError}</span>`}. ${this.settings('site-analytics', 'Manage the connection')}.`;
  }

  private crawlerState(state: CrawlerSourceState): SafeHtml {
    const workspaceId = this.current.workspaceId;
    switch (state.source) {
      case 'site_hook':
        return html`${this.lastReport(state)}. ${state.qualifies ? '' : html`Needs a <a href="/w/${workspaceId}/publishing">publishing destination</a>: its signing secret is the key the site reports with.`}`;
      case 'cms_plugin':
        return html`${state.pluginVersion === null ? 'No plugin has reported yet' : `plugin ${state.pluginVersion}`}; ${this.lastReport(state)}.`;
      case 'cdn':
        if (!state.connected) return html`Not connected: ${this.settings('cdn', 'connect Cloudflare in the workspace settings')}.`;
        return html`Connected${state.via === null ? '' : ` with ${state.via === 'oauth' ? 'OAuth' : 'an API token'}`}; zone ${state.zone?.name ?? 'not selected yet'}; last sync ${this.time(state.lastSyncAt)}${
          state.backfill === null ? '' : `; backfill ${state.backfill.windowsDone} of ${state.backfill.windowsTotal} windows`
        }${state.lastError === null ? '' : html`; <span class="error">last sync failed: ${state.lastError}</span>`}. ${this.settings('cdn', 'Manage the CDN connection')}.`;
    }
  }

  /** The owner's control on a crawler source: choose it when the setup qualifies for it. */
  private crawlerAction(state: CrawlerSourceState): SafeHtml {
    if (state.source === this.sources.aiCrawlers.selected) return html`<strong>in use</strong>`;
    if (!state.qualifies) return html`<span class="muted">not available</span>`;
    if (this.current.role !== 'owner') return html`<span class="muted">available; an owner can choose it</span>`;
    return operationForm(this.res, {
      operationId: 'set_analytics_source',
      hidden: { dataType: 'aiCrawlers', source: state.source },
      button: `Use ${state.source.replace('_', ' ')}`,
      inline: true,
      buttonClass: 'secondary',
    });
  }

  private builderRow(name: string, state: Sources['siteBuilders']['webflow']): SafeHtml {
    const latest = state.latest;
    return html`<tr><th scope="row">${name}</th><td>${latest === null ? html`<span class="muted">never installed</span>` : latest.status}${latest?.error ? html` <span class="error">${latest.error}</span>` : ''}</td><td>${this.time(state.installedAt)}</td></tr>`;
  }

  render(): SafeHtml {
    const { humanTraffic, aiCrawlers, siteBuilders } = this.sources;
    const ownCounter = humanTraffic.sources.find((state) => state.source === 'own_counter')!;
    return html`<h2>Human traffic</h2>
<p>The funnel and the reports read <strong id="human-selected">${humanTraffic.selected === 'own_counter' ? 'this service’s counter' : 'the connected analytics provider'}</strong>: the counter once its tag has reported, else a connected provider.</p>
<div class="table-wrap" tabindex="0"><table id="human-sources"><thead><tr><th scope="col">Source</th><th scope="col">Available</th><th scope="col">State</th></tr></thead><tbody>${humanTraffic.sources.map(
      (state) => html`<tr><th scope="row">${state.source === 'own_counter' ? 'This service’s counter' : 'Analytics provider'}</th><td>${yesNo(state.qualifies)}</td><td>${this.humanState(state)}</td></tr>`,
    )}</tbody></table></div>
<p><label>The tracking tag: add it to every page of the site, and the counter’s page views, sessions and leads come from it. <textarea id="tracking-tag" readonly rows="3">${ownCounter.tag}</textarea></label></p>
<h2>AI crawlers</h2>
<p>Crawler figures come from <strong id="crawler-selected">${CRAWLER_SOURCE_NAMES[aiCrawlers.selected]}</strong>.${this.current.role === 'owner' ? ' Choosing the CDN starts a backfill of its zone.' : ''}</p>
<div class="table-wrap" tabindex="0"><table id="crawler-sources"><thead><tr><th scope="col">Source</th><th scope="col">State</th><th scope="col">Use</th></tr></thead><tbody>${aiCrawlers.sources.map(
      (state) => html`<tr><th scope="row">${CRAWLER_SOURCE_NAMES[state.source]}</th><td>${this.crawlerState(state)}</td><td>${this.crawlerAction(state)}</td></tr>`,
    )}</tbody></table></div>
<h2>Tracking loader through a site builder</h2>
<div class="table-wrap" tabindex="0"><table id="site-builders"><thead><tr><th scope="col">Site builder</th><th scope="col">Latest install</th><th scope="col">Live since</th></tr></thead><tbody>
${this.builderRow('Webflow', siteBuilders.webflow)}${this.builderRow('Wix', siteBuilders.wix)}</tbody></table></div>
<p>${this.settings('webflow', 'Connect Webflow in the workspace settings')}; install_sitebuilder_embed then adds the loader to the sites you pick.</p>`;
  }
}

/** Sources: where human-traffic and AI-crawler figures come from, and the owner's choice of crawler source. */
export async function sourcesPage(deps: DashboardDeps, res: Response): Promise<void> {
  const sources = await readOperation<Sources>(deps, res, 'get_analytics_sources');
  showAnalyticsPage(deps, res, ANALYTICS_SOURCES, new SourcesView(res, sources).render());
}

export const ANALYTICS_SOURCES: DashboardPage = {
  area: 'analytics',
  path: 'analytics/sources',
  title: 'Sources',
  show: (deps, _req, res) => sourcesPage(deps, res),
};
