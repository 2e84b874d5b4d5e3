import { requestApproval } from '../../src/approvals/approvals.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { saveWebflowConnection } from '../../src/analytics/builders/connection.js';
import { sharedSiteBuilderFakes } from '../integrations/fakes/siteBuilders.js';
import { seedGrant } from '../support/grants.js';
import type { TestService, TestWorkspace } from '../support/harness.js';
import { connectCloudflare, CONTRACT_ZONE } from './cloudflare.js';
import { type SitePage, startSite, urlset } from '../links/support.js';
import { configureMailbox, insertDraft, insertProspect } from '../outreach/support.js';
import { insertPlacement, members } from '../network/support.js';
import { insertThread } from '../social/support.js';
import { insertRepurposeDraft } from '../repurpose/support.js';
import { connectPostiz, pushableDraft } from './schedulers.js';

type Input = Record<string, unknown>;

/**
 * Per operation: a valid input (creating whatever it refers to), and for operations that name an object,
 * an input naming an object of another workspace. The contract tests refuse an operation without one,
 * so every new operation is exercised on both surfaces the moment it is declared.
 */
export interface Fixture {
  valid(t: TestService, ws: TestWorkspace): Promise<Input>;
  foreign?(t: TestService, other: TestWorkspace): Promise<Input>;
}

async function data(t: TestService, ws: TestWorkspace, path: string, body: Input): Promise<Record<string, unknown>> {
  const answer = await t.rest(ws.key, 'POST', path, body);
  if (answer.status !== 200) throw new Error(`fixture call ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data as Record<string, unknown>;
}

const guideline = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/brand/guidelines', { type: 'tone', avoid: 'jargon', instead: 'plain words' }).then((d) => String(d.guidelineId));
const product = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/brand/product', { name: 'Widget', description: 'A widget', category: 'core_product' }).then((d) => String(d.productId));
const buyerProfile = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/brand/icp', { title: 'Ops lead', industry: 'Logistics', demographics: { seniority: 'senior' } }).then((d) => String(d.profileId));
const invite = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/team/invite', { email: `invitee-${Math.random().toString(36).slice(2)}@example.com`, confirm: true }).then((d) => String(d.inviteId));
const approval = (t: TestService, ws: TestWorkspace) =>
  requestApproval(t.db, t.clock, {
    workspaceId: ws.workspaceId,
    operationId: 'remove_competitor',
    input: { competitorId: 'cmp_x' },
    summary: 'Would stop tracking a competitor',
    requestedBy: { apiKeyId: ws.keyId, userId: null },
  }).then((a) => a.approvalId);
const plannedArticle = (t: TestService, ws: TestWorkspace) =>
  insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'crm for dentists', title: 'How to pick a CRM for dentists', scheduledAt: t.clock.now() + 86_400_000, language: 'en' });
const destination = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/destinations', { name: 'Main blog', endpointUrl: 'https://receiver.example/hook', siteUrl: 'https://acme.example/blog' }).then((d) =>
    String(d.destinationId),
  );
/** A Slack channel at an address nothing answers (.example): a test alert to it fails and says why. */
const alertChannel = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/changes/channels', { kind: 'slack', name: 'Team channel', url: 'https://hooks.slack.example/services/T0/B0/secret', confirm: true }).then((d) => String(d.channelId));
/** A planned article given a body directly, as the write job leaves it: a draft. */
const writtenArticle = async (t: TestService, ws: TestWorkspace) => {
  const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'crm for dentists', title: 'How to pick a CRM for dentists', scheduledAt: t.clock.now(), language: 'en' });
  await t.db.updateTable('articles').set({ status: 'draft', markdown: '# CRM for dentists\n\nPick one that books appointments.', word_count: 7, written_at: t.clock.now() }).where('id', '=', id).execute();
  return id;
};
/** A draft to a prospect with a contact, in a workspace whose mailbox is set up. */
const outreachDraft = async (t: TestService, ws: TestWorkspace) => {
  await configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId);
  return insertDraft(t.db, t.clock, ws.workspaceId, await insertProspect(t.db, t.clock, ws.workspaceId));
};
/** A proposed link-network placement from the workspace's article to a page of a fresh member site. */
const networkPlacement = async (t: TestService, ws: TestWorkspace) => {
  const partner = await t.workspace({ name: 'Partner Co', site: 'https://partner.example' });
  await members(t, ws, partner);
  return insertPlacement(t, ws, partner);
};
/** A link the owner recorded on another site (source managed). */
const managedBacklink = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/backlinks/managed', { linkingUrl: `https://${uniqueText('partner').replace(' ', '-')}.example/post` }).then((d) => String(d.backlinkId));
/** A published article with a live URL: what repurposing drafts from. */
const publishedArticle = async (t: TestService, ws: TestWorkspace) => {
  const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: 'crm for dentists', title: 'How to pick a CRM for dentists', scheduledAt: t.clock.now(), language: 'en' });
  await t.db
    .updateTable('articles')
    .set({ status: 'published', markdown: '# CRM for dentists\n\nPick one that books appointments.', word_count: 7, written_at: t.clock.now(), published_at: t.clock.now(), url: `https://acme.example/blog/${id}` })
    .where('id', '=', id)
    .execute();
  return id;
};
/** A stored repurpose draft for X, as generate_repurpose leaves it. */
const repurposeDraft = async (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/repurpose/generate', { contentId: await publishedArticle(t, ws), channels: ['x'], confirm: true }).then((d) =>
    String((d.drafts as Array<{ draftId: string }>)[0]!.draftId),
  );
const uniqueText = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2)}`;
const trackedQuery = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/queries', { text: uniqueText('crm for') }).then((d) => String((d.query as { id: string }).id));
const committedTitle = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/content/plan/commit', { titles: [{ title: uniqueText('How to choose a CRM'), keyword: 'crm' }] }).then((d) =>
    String((d.planned as Array<{ contentId: string }>)[0]!.contentId),
  );
/** A planned article that may be moved: flexible scheduling on, up to 5 a day. */
const movableTitle = async (t: TestService, ws: TestWorkspace) => {
  await data(t, ws, '/api/v1/brand/profile', { flexibleScheduling: true });
  await data(t, ws, '/api/v1/settings/articles', { articlesPerDay: 5 });
  return committedTitle(t, ws);
};
/** One local https site with a sitemap for the whole run; detect_site_pages reads it as the workspace's website. */
let sitemapSite: Promise<string> | undefined;
const siteWithSitemap = async (t: TestService, ws: TestWorkspace) => {
  sitemapSite ??= (async () => {
    const routes: Record<string, SitePage> = {};
    const site = await startSite(routes);
    routes['/sitemap.xml'] = { body: urlset([`${site.origin}/guide`, `${site.origin}/pricing`]) };
    return site.origin;
  })();
  const origin = await sitemapSite;
  // The website is fixed at sign-up; the fixture points it at the local site so that its sitemap is on the workspace's site.
  await t.db.updateTable('workspaces').set({ website_url: origin }).where('id', '=', ws.workspaceId).execute();
  return `${origin}/sitemap.xml`;
};
const competitor = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/competitors', { name: 'Rival', websiteUrl: `https://${uniqueText('rival').replace(' ', '-')}.example` }).then((d) =>
    String((d.competitor as { competitorId: string }).competitorId),
  );
/** A job queued through the API: a test event's delivery. */
const queuedJob = async (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/destinations/test', { destinationId: await destination(t, ws) }).then((d) => String(d.jobId));
const member = (t: TestService, ws: TestWorkspace) => t.user(ws.workspaceId, `member-${Math.random().toString(36).slice(2)}@example.com`, 'member');
const connectedApp = async (t: TestService, ws: TestWorkspace) =>
  (await seedGrant(t, { workspaceId: ws.workspaceId, userId: await member(t, ws), clientName: 'Claude' })).grantId;

/** A Webflow site on the shared fake, connected to the workspace (a new one each time, so each gets its first publish). */
const webflowSite = async (t: TestService, ws: TestWorkspace) => {
  const { webflow } = await sharedSiteBuilderFakes();
  const { site, token } = webflow.addSite();
  await saveWebflowConnection(t.db, t.clock, t.service.services.credentials, { workspaceId: ws.workspaceId, userId: null, accessToken: token });
  return site.id;
};
/** A Wix site at the workspace's website that installed the service's app, on the shared fake. */
const wixInstance = async (t: TestService, ws: TestWorkspace) => {
  const { wix } = await sharedSiteBuilderFakes();
  const workspace = await t.db.selectFrom('workspaces').select('website_url').where('id', '=', ws.workspaceId).executeTakeFirstOrThrow();
  return wix.addInstance(workspace.website_url).instanceId;
};

/** An imported prospect on a domain that does not resolve: the contact finder reads nothing there and says so. */
const prospect = (t: TestService, ws: TestWorkspace) =>
  data(t, ws, '/api/v1/outreach/prospects', { prospects: [{ domain: `${uniqueText('prospect').replace(' ', '-')}.invalid`, contactEmail: 'editor@example.org' }] }).then((d) =>
    String((d.prospects as Array<{ prospectId: string }>)[0]!.prospectId),
  );

export const fixtures: Record<string, Fixture> = {
  get_brand: { valid: async () => ({}) },
  update_brand_identity: { valid: async () => ({ brandAliases: ['Acme'] }) },
  update_brand_profile: { valid: async () => ({ tone: 'friendly' }) },
  add_brand_guideline: { valid: async () => ({ type: 'style', avoid: 'passive voice', instead: 'active voice' }) },
  set_brand_guideline_active: {
    valid: async (t, ws) => ({ guidelineId: await guideline(t, ws), on: false }),
    foreign: async (t, other) => ({ guidelineId: await guideline(t, other), on: false }),
  },
  remove_brand_guideline: {
    valid: async (t, ws) => ({ guidelineId: await guideline(t, ws) }),
    foreign: async (t, other) => ({ guidelineId: await guideline(t, other) }),
  },
  write_brand_product: {
    valid: async () => ({ name: 'Gadget', description: 'A gadget', category: 'product' }),
    foreign: async (t, other) => ({ productId: await product(t, other), name: 'Renamed' }),
  },
  write_brand_icp: {
    valid: async () => ({ title: 'Founder', industry: 'SaaS', demographics: { ageRange: '30-45' } }),
    foreign: async (t, other) => ({ profileId: await buyerProfile(t, other), title: 'Renamed' }),
  },
  confirm_brand_reviewed: { valid: async () => ({}) },
  draft_brand_icp: { valid: async () => ({ describe: 'Practice managers at dental clinics', given: { companySize: '' } }) },
  suggest_brand_icps: { valid: async () => ({ exclude: ['Founder'] }) },
  generate_article: {
    valid: async (t, ws) => ({ contentId: await plannedArticle(t, ws) }),
    foreign: async (t, other) => ({ contentId: await plannedArticle(t, other) }),
  },
  draft_outreach_reply: {
    valid: async (t, ws) => ({ prospectId: await insertProspect(t.db, t.clock, ws.workspaceId), instructions: 'Mention the dental CRM guide.' }),
    foreign: async (t, other) => ({ prospectId: await insertProspect(t.db, t.clock, other.workspaceId) }),
  },
  queue_outreach_send: {
    valid: async (t, ws) => ({ messageId: await outreachDraft(t, ws) }),
    foreign: async (t, other) => ({ messageId: await outreachDraft(t, other) }),
  },
  get_outreach_thread: {
    valid: async (t, ws) => {
      const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId);
      await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
      return { prospectId };
    },
    foreign: async (t, other) => ({ prospectId: await insertProspect(t.db, t.clock, other.workspaceId) }),
  },
  update_outreach_draft: {
    valid: async (t, ws) => ({ messageId: await outreachDraft(t, ws), subject: 'A dental CRM guide for your list', body: 'Hello Dana,\n\nA guide your readers may like.' }),
    foreign: async (t, other) => ({ messageId: await outreachDraft(t, other), body: 'Edited.' }),
  },
  get_team: { valid: async () => ({}) },
  invite_team_member: { valid: async () => ({ email: 'new.person@example.com', role: 'member' }) },
  revoke_team_invite: {
    valid: async (t, ws) => ({ inviteId: await invite(t, ws) }),
    foreign: async (t, other) => ({ inviteId: await invite(t, other) }),
  },
  remove_team_member: {
    valid: async (t, ws) => ({ userId: await member(t, ws) }),
    foreign: async (t, other) => ({ userId: await member(t, other) }),
  },
  get_billing: { valid: async () => ({}) },
  update_workspace_settings: { valid: async () => ({ timeZone: 'Europe/Berlin' }) },
  list_connected_apps: { valid: async () => ({}) },
  revoke_connected_app: {
    valid: async (t, ws) => ({ grantId: await connectedApp(t, ws) }),
    foreign: async (t, other) => ({ grantId: await connectedApp(t, other) }),
  },
  list_approvals: { valid: async () => ({ limit: 10 }) },
  get_approval: {
    valid: async (t, ws) => ({ approvalId: await approval(t, ws) }),
    foreign: async (t, other) => ({ approvalId: await approval(t, other) }),
  },
  list_destinations: { valid: async () => ({}) },
  create_destination: { valid: async () => ({ name: 'Main blog', endpointUrl: 'https://receiver.example/hook', siteUrl: 'https://acme.example/blog' }) },
  activate_destination: {
    valid: async (t, ws) => ({ destinationId: await destination(t, ws) }),
    foreign: async (t, other) => ({ destinationId: await destination(t, other) }),
  },
  send_test_event: {
    valid: async (t, ws) => ({ destinationId: await destination(t, ws) }),
    foreign: async (t, other) => ({ destinationId: await destination(t, other) }),
  },
  remove_destination: {
    valid: async (t, ws) => ({ destinationId: await destination(t, ws) }),
    foreign: async (t, other) => ({ destinationId: await destination(t, other) }),
  },
  list_deliveries: {
    valid: async (t, ws) => ({ destinationId: await destination(t, ws) }),
    foreign: async (t, other) => ({ destinationId: await destination(t, other) }),
  },
  get_articles: { valid: async () => ({ limit: 5 }) },
  publish_content: {
    valid: async (t, ws) => {
      await destination(t, ws);
      return { contentId: await writtenArticle(t, ws) };
    },
    foreign: async (t, other) => ({ contentId: await writtenArticle(t, other) }),
  },
  update_article_meta: {
    valid: async (t, ws) => ({ contentId: await writtenArticle(t, ws), metaTitle: 'Choosing a CRM for a dental practice' }),
    foreign: async (t, other) => ({ contentId: await writtenArticle(t, other), metaTitle: 'Renamed' }),
  },
  list_queries: { valid: async () => ({}) },
  add_query: { valid: async () => ({ text: uniqueText('best crm for') }) },
  update_query: {
    valid: async (t, ws) => ({ queryId: await trackedQuery(t, ws), text: uniqueText('best crm for'), hidden: true }),
    foreign: async (t, other) => ({ queryId: await trackedQuery(t, other), hidden: true }),
  },
  remove_query: {
    valid: async (t, ws) => ({ queryId: await trackedQuery(t, ws) }),
    foreign: async (t, other) => ({ queryId: await trackedQuery(t, other) }),
  },
  get_content_ideas: { valid: async () => ({}) },
  hide_content_idea: {
    valid: async (t, ws) => ({ queryId: await trackedQuery(t, ws) }),
    foreign: async (t, other) => ({ queryId: await trackedQuery(t, other) }),
  },
  plan_content_idea: {
    valid: async () => ({ queryText: uniqueText('crm for') }),
    foreign: async (t, other) => ({ queryId: await trackedQuery(t, other) }),
  },
  plan_titles: { valid: async () => ({ count: 3, topic: 'CRM for small agencies' }) },
  commit_planned_titles: { valid: async () => ({ titles: [{ title: uniqueText('Choosing a CRM'), keyword: 'choosing a crm' }] }) },
  get_planning_capacity: { valid: async () => ({}) },
  reschedule_content: {
    valid: async (t, ws) => ({ contentId: await movableTitle(t, ws), scheduledAt: new Date(t.clock.now() + 86_400_000).toISOString() }),
    foreign: async (t, other) => ({ contentId: await movableTitle(t, other), scheduledAt: new Date(t.clock.now() + 86_400_000).toISOString() }),
  },
  list_content: { valid: async () => ({}) },
  delete_planned_title: {
    valid: async (t, ws) => ({ contentId: await committedTitle(t, ws) }),
    foreign: async (t, other) => ({ contentId: await committedTitle(t, other) }),
  },
  archive_content: {
    valid: async (t, ws) => ({ contentId: await committedTitle(t, ws) }),
    foreign: async (t, other) => ({ contentId: await committedTitle(t, other) }),
  },
  get_article_policy: { valid: async () => ({}) },
  update_article_policy: { valid: async () => ({ publishDays: ['tue', 'thu'], publishTime: '10:30', targetWordCount: 1200 }) },
  list_changes: {
    valid: async (t, ws) => ({ queryId: await trackedQuery(t, ws), severity: 'warning', from: '2026-01-01' }),
    foreign: async (t, other) => ({ queryId: await trackedQuery(t, other) }),
  },
  list_alert_rules: { valid: async () => ({}) },
  update_alert_rule: {
    valid: async (t, ws) => ({ kind: 'citation.lost', enabled: true, engines: ['perplexity'], queryIds: [await trackedQuery(t, ws)] }),
    foreign: async (t, other) => ({ kind: 'citation.lost', queryIds: [await trackedQuery(t, other)] }),
  },
  update_alert_settings: { valid: async () => ({ alertsPerDay: 5 }) },
  list_alert_channels: { valid: async () => ({}) },
  add_alert_channel: {
    valid: async () => ({ kind: 'slack', name: 'Team channel', url: 'https://hooks.slack.example/services/T0/B0/secret', minSeverity: 'critical' }),
    foreign: async (t, other) => ({ kind: 'webhook', name: 'Events', destinationId: await destination(t, other) }),
  },
  remove_alert_channel: {
    valid: async (t, ws) => ({ channelId: await alertChannel(t, ws) }),
    foreign: async (t, other) => ({ channelId: await alertChannel(t, other) }),
  },
  send_test_alert: {
    valid: async (t, ws) => ({ channelId: await alertChannel(t, ws) }),
    foreign: async (t, other) => ({ channelId: await alertChannel(t, other) }),
  },
  get_digest: { valid: async () => ({ week: '2026-11-11' }) },
  list_jobs: { valid: async () => ({ limit: 10, state: 'failed' }) },
  get_job: {
    valid: async (t, ws) => ({ jobId: await queuedJob(t, ws) }),
    foreign: async (t, other) => ({ jobId: await queuedJob(t, other) }),
  },
  get_caller: { valid: async () => ({}) },
  run_visibility_check: {
    valid: async (t, ws) => ({ queryIds: [await trackedQuery(t, ws)], engines: ['perplexity'] }),
    foreign: async (t, other) => ({ queryIds: [await trackedQuery(t, other)] }),
  },
  send_support_message: { valid: async () => ({ message: 'The dashboard shows no data', subject: 'No data' }) },
  list_site_pages: { valid: async () => ({}) },
  add_site_pages: { valid: async () => ({ pages: [{ url: `https://acme.example/${uniqueText('page').replace(' ', '-')}`, keywords: ['crm guide'] }] }) },
  detect_site_pages: { valid: async (t, ws) => ({ url: await siteWithSitemap(t, ws) }) },
  get_internal_links: {
    valid: async (t, ws) => ({ contentId: await writtenArticle(t, ws) }),
    foreign: async (t, other) => ({ contentId: await writtenArticle(t, other) }),
  },
  preview_article: {
    valid: async (t, ws) => ({ contentId: await writtenArticle(t, ws) }),
    foreign: async (t, other) => ({ contentId: await writtenArticle(t, other) }),
  },
  get_content_optimizer: {
    valid: async (t, ws) => ({ contentId: await writtenArticle(t, ws) }),
    foreign: async (t, other) => ({ contentId: await writtenArticle(t, other) }),
  },
  get_visibility_score: { valid: async () => ({ days: '7', model: 'chatgpt' }) },
  get_visibility_trend: { valid: async () => ({ days: '90' }) },
  get_share_of_voice: { valid: async () => ({ days: '30' }) },
  get_citation_sources: { valid: async () => ({ model: 'perplexity' }) },
  get_sentiment: { valid: async () => ({}) },
  get_rankings_: { valid: async () => ({ scope: 'site' }) },
  get_google_vs_ai: { valid: async () => ({}) },
  activate_analytics_screen: { valid: async () => ({ screen: 'reports' }) },
  install_sitebuilder_embed: {
    valid: async (t, ws) => ({ siteId: await webflowSite(t, ws) }),
    foreign: async (t, other) => ({ siteId: await webflowSite(t, other) }),
  },
  install_sitebuilder_custom_code: {
    valid: async (t, ws) => ({ instanceId: await wixInstance(t, ws) }),
    // An instance another workspace installed through stays that workspace's.
    foreign: async (t, other) => {
      const instanceId = await wixInstance(t, other);
      await data(t, other, '/api/v1/integrations/sitebuilder-b/custom-code', { instanceId, confirm: true });
      return { instanceId };
    },
  },
  get_agent_activity: { valid: async () => ({ days: '30' }) },
  get_page_engagement: { valid: async () => ({}) },
  list_leads: { valid: async () => ({ limit: 10 }) },
  list_backlinks: { valid: async () => ({ status: 'verified', limit: 10 }) },
  get_backlink_stats: { valid: async () => ({}) },
  add_managed_backlink: { valid: async () => ({ linkingUrl: `https://${uniqueText('blog').replace(' ', '-')}.example/post`, anchorText: 'Acme', dofollow: true }) },
  remove_managed_backlink: {
    valid: async (t, ws) => ({ backlinkId: await managedBacklink(t, ws) }),
    foreign: async (t, other) => ({ backlinkId: await managedBacklink(t, other) }),
  },
  get_analytics_sources: { valid: async () => ({}) },
  get_funnel: { valid: async () => ({ days: '7' }) },
  get_reports_summary: {
    valid: async (t, ws) => {
      await data(t, ws, '/api/v1/analytics/activate', { screen: 'reports' });
      return { days: '7' };
    },
  },
  get_reports_wins: {
    valid: async (t, ws) => {
      await data(t, ws, '/api/v1/analytics/activate', { screen: 'reports' });
      return {};
    },
  },
  set_analytics_source: {
    valid: async (t, ws) => {
      await connectCloudflare(t, ws);
      await data(t, ws, '/api/v1/integrations/cdn/zone', { zoneId: CONTRACT_ZONE.id });
      return { dataType: 'aiCrawlers', source: 'cdn' };
    },
  },
  get_traffic_overview: {
    valid: async (t, ws) => {
      await data(t, ws, '/api/v1/analytics/activate', { screen: 'analytics' });
      return { days: '7' };
    },
  },
  // The contract services are given an OAuth client and a local Cloudflare (cdnEnv), to which these connect.
  get_cdn_connect_url: { valid: async () => ({}) },
  list_cdn_zones: {
    valid: async (t, ws) => {
      await connectCloudflare(t, ws);
      return {};
    },
  },
  select_cdn_zone: {
    valid: async (t, ws) => {
      await connectCloudflare(t, ws);
      return { zoneId: CONTRACT_ZONE.id };
    },
    foreign: async (t, other) => {
      await connectCloudflare(t, other);
      return { zoneId: CONTRACT_ZONE.id };
    },
  },
  // The probe reads robots.txt and the home page of the workspace's site: the local one.
  get_crawler_access: {
    valid: async (t, ws) => {
      await siteWithSitemap(t, ws);
      return {};
    },
  },
  list_citations: { valid: async () => ({ model: 'chatgpt', limit: 10, before: '2026-11-22T00:00:00Z' }) },
  get_competitors: { valid: async () => ({}) },
  add_competitor: { valid: async () => ({ name: 'Rival', websiteUrl: `https://${uniqueText('rival').replace(' ', '-')}.example` }) },
  remove_competitor: {
    valid: async (t, ws) => ({ competitorId: await competitor(t, ws) }),
    foreign: async (t, other) => ({ competitorId: await competitor(t, other) }),
  },
  list_repurpose: {
    valid: async () => ({ state: 'draft', channel: 'x', limit: 10 }),
    foreign: async (t, other) => ({ contentId: await publishedArticle(t, other) }),
  },
  generate_repurpose: {
    valid: async (t, ws) => ({ contentId: await publishedArticle(t, ws), channels: ['x', 'linkedin'], instructions: 'Stress the booking feature.' }),
    foreign: async (t, other) => ({ contentId: await publishedArticle(t, other), channels: ['x'] }),
  },
  update_repurpose_draft: {
    valid: async (t, ws) => ({ draftId: await repurposeDraft(t, ws), posts: ['A CRM for dentists should book appointments.', 'More: https://acme.example/blog'] }),
    foreign: async (t, other) => ({ draftId: await repurposeDraft(t, other), posts: ['Edited.'] }),
  },
  list_outreach_prospects: { valid: async () => ({ stage: 'identified', limit: 10 }) },
  list_outreach_suppressions: { valid: async () => ({ limit: 10 }) },
  set_outreach_suppression: { valid: async () => ({ address: `${uniqueText('person').replace(' ', '-')}@example.org`, suppressed: true }) },
  list_social_threads: { valid: async () => ({ status: 'new', sort: 'newest', limit: 10 }) },
  get_social_stats: { valid: async () => ({}) },
  set_social_thread_status: {
    valid: async (t, ws) => ({ threadId: await insertThread(t.db, t.clock, ws.workspaceId), status: 'dismissed' }),
    foreign: async (t, other) => ({ threadId: await insertThread(t.db, t.clock, other.workspaceId), status: 'dismissed' }),
  },
  draft_social_reply: {
    // A Bluesky thread: that source is not configured here, so the draft does not ask it whether the thread is open.
    valid: async (t, ws) => ({ threadId: await insertThread(t.db, t.clock, ws.workspaceId, { source: 'bluesky' }), instructions: 'Mention the recall reminders.' }),
    foreign: async (t, other) => ({ threadId: await insertThread(t.db, t.clock, other.workspaceId) }),
  },
  search_social_threads: { valid: async () => ({}) },
  add_outreach_prospects: { valid: async () => ({ prospects: [{ url: `https://${uniqueText('blog').replace(' ', '-')}.example/post`, note: 'writes about CRMs' }] }) },
  set_outreach_status: {
    valid: async (t, ws) => ({ prospectId: await prospect(t, ws), stage: 'rejected' }),
    foreign: async (t, other) => ({ prospectId: await prospect(t, other), stage: 'rejected' }),
  },
  find_outreach_contact: {
    valid: async (t, ws) => ({ prospectId: await prospect(t, ws) }),
    foreign: async (t, other) => ({ prospectId: await prospect(t, other) }),
  },
  list_repurpose_channels: {
    valid: async (t, ws) => {
      await connectPostiz(t, ws);
      return {};
    },
  },
  push_repurpose: {
    valid: async (t, ws) => ({ draftIds: [await pushableDraft(t, ws)], channelId: 'int-li' }),
    foreign: async (t, other) => ({ draftIds: [await pushableDraft(t, other)], channelId: 'int-li' }),
  },
  mark_repurpose_posted: {
    valid: async (t, ws) => ({ draftId: await insertRepurposeDraft(t, ws.workspaceId, { state: 'pushed' }) }),
    foreign: async (t, other) => ({ draftId: await insertRepurposeDraft(t, other.workspaceId, { state: 'pushed' }) }),
  },
  get_link_network: { valid: async () => ({}) },
  set_link_network_membership: { valid: async () => ({ member: true }) },
  remove_link_placement: {
    valid: async (t, ws) => ({ placementId: await networkPlacement(t, ws) }),
    foreign: async (t, other) => ({ placementId: await networkPlacement(t, other) }),
  },
  accept_link_placement: {
    valid: async (t, ws) => ({ placementId: await networkPlacement(t, ws) }),
    foreign: async (t, other) => ({ placementId: await networkPlacement(t, other) }),
  },
};
