import { approvalTools } from './approvals/index.js';
import { authOperations } from './auth/index.js';
import { backlinksTools } from './backlinks/index.js';
import { billingTools } from './billing/index.js';
import { analyticsTools } from './analytics/index.js';
import { brandTools } from './brand/index.js';
import { changesTools } from './changes/index.js';
import { contentTools } from './content/index.js';
import { jobsTools } from './jobs/index.js';
import { linksTools } from './links/index.js';
import { outreachTools } from './outreach/index.js';
import { networkTools } from './network/index.js';
import { publishingTools } from './publishing/index.js';
import { socialTools } from './social/index.js';
import { queriesTools } from './queries/index.js';
import { repurposeTools } from './repurpose/index.js';
import { buildRegistry } from './registry.js';
import { supportTools } from './support/index.js';
import { teamTools } from './team/index.js';
import { visibilityTools } from './visibility/index.js';
import { workspaceTools } from './workspace/index.js';

/** Every operation, grouped by domain; the group name is the MCP toolset and the OpenAPI tag. */
export const registry = buildRegistry({
  brand: {
    description: 'Brand memory: identity, profile, products, buyer profiles and writing guidelines, which steer every article.',
    operations: brandTools,
  },
  queries: { description: 'The search queries whose AI answers and rankings the weekly checks track.', operations: queriesTools },
  content: {
    description: 'Content planning and writing: ideas, planned titles, the calendar, article policy, generation and optimisation.',
    operations: contentTools,
  },
  links: { description: "The site's own pages, for internal links in articles.", operations: linksTools },
  publishing: { description: "Publishing to the customer's site through signed webhooks, and the published articles.", operations: publishingTools },
  jobs: { description: 'Background work (writing, publishing, checks and syncs) and its progress.', operations: jobsTools },
  visibility: {
    description: 'How AI answer engines see the brand: citations, visibility score and trend, share of voice, sources, sentiment, competitors.',
    operations: visibilityTools,
  },
  analytics: {
    description: "Search rankings, Google versus AI answers, AI crawler access to the site, the Analytics and Reports screens, and the agents' activity.",
    operations: analyticsTools,
  },
  changes: {
    description: 'What Sightline noticed on its own after each check run and as things happen (alerts), and the weekly digest.',
    operations: changesTools,
  },
  backlinks: { description: 'Links to the site: the backlink index, verification of placed links, and their totals.', operations: backlinksTools },
  outreach: {
    description: "Outreach to earn backlinks: prospects and where each stands, who to write to there, emails drafted and sent from the workspace's own mailbox with their replies, and links placed.",
    operations: outreachTools,
  },
  network: {
    description: 'The link network: members link to each other on the same topic, with both owners approving every link, rel="sponsored" by default and anti-scheme rules.',
    operations: networkTools,
  },
  social: {
    description: 'Public threads where the brand\'s topics come up (Hacker News, Stack Exchange, Bluesky, Reddit), with reply drafts a person posts.',
    operations: socialTools,
  },
  repurpose: {
    description: "Articles turned into social posts: drafts per channel in its form and limits, linking back with UTM tags, pushed to the workspace's scheduling tool (Postiz, Buffer or Typefully), and the record of what went out.",
    operations: repurposeTools,
  },
  team: { description: 'Members of the workspace and invitations.', operations: teamTools },
  workspace: { description: 'Workspace settings, and the AI apps connected to it by OAuth.', operations: workspaceTools },
  billing: { description: 'Plan, usage and add-ons.', operations: billingTools },
  support: { description: 'Messages to the Sightline support team.', operations: supportTools },
  approvals: { description: 'Changes that wait for the workspace owner, and their outcome.', operations: approvalTools },
  auth: { description: 'Who is calling (get_caller), and device login for command-line clients (public, REST only).', operations: authOperations },
});
