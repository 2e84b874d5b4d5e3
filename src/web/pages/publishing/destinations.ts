import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { destination } from '../../../../tools/publishing/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { pageUrl } from '../../paths.js';
import { selectField, textField } from '../brand/fields.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { DESTINATION_KINDS } from '../../../publishing/cms/kinds.js';
import { cmsDeps } from '../../../publishing/cms/deps.js';
import { DestinationError } from '../../../publishing/cms/destination.js';
import {
  fieldFits,
  listWebflowCollections,
  webflowCollectionFields,
  type MappablePart,
  type WebflowCollectionChoice,
  type WebflowFieldChoice,
} from '../../../integrations/webflow/cms.js';

export type Destination = z.infer<typeof destination>;

const KIND_LABELS: Record<Destination['kind'], string> = { webhook: 'Webhook', ghost: 'Ghost', wordpress: 'WordPress', webflow: 'Webflow CMS' };

/** The article parts a Webflow collection's fields can take, as the form asks for them. */
const WEBFLOW_PARTS: Array<[part: MappablePart, label: string, hint: string]> = [
  ['body', 'body (Rich text)', 'Webflow only, and required for it'],
  ['excerpt', 'excerpt (Plain or Rich text)', 'optional'],
  ['metaTitle', 'SEO title (Plain text)', 'optional'],
  ['metaDescription', 'meta description (Plain text)', 'optional'],
  ['featuredImage', 'featured image (Image)', 'optional'],
  ['category', 'category (Plain text)', 'optional'],
  ['tags', 'tags (Plain text, comma-separated)', 'optional'],
  ['faq', 'FAQ (Rich or Plain text)', 'optional'],
  ['schemaJsonLd', 'JSON-LD (Plain text, for an embed in the template page)', 'optional'],
];

/** The Webflow part of the Add form, and the GET form above it that picks the collection whose fields it offers. */
interface WebflowForm {
  picker: SafeHtml;
  fields: SafeHtml;
  /** The collection picked with ?webflowCollection: the form then creates a Webflow destination by default. */
  chosen: boolean;
}

/** Typed ids and slugs, when the connection cannot be read: `why` says what the owner can do about it. */
function typedWebflowFields(why: string): WebflowForm {
  return {
    picker: html``,
    fields: html`<p class="muted" id="webflow-fields-hint">${why}</p>
${textField('webflow.collectionId', 'Webflow collection id', '', { hint: "Webflow only: the collection's id, in its settings in the Designer's CMS panel" })}
${WEBFLOW_PARTS.map(([part, label, hint]) => textField(`webflow.fields.${part}`, `Webflow field for the ${label}`, '', { hint: `${hint}: the field's slug` }))}`,
    chosen: false,
  };
}

/**
 * The collections the workspace's Webflow connection reaches to pick from, and for the picked one a select per article
 * part offering the fields whose type fits it (the rule the kind's check applies). Read through the kind's own client
 * and connection, so what the page offers is what create_destination accepts; names and slugs are Webflow's (escaped).
 */
async function webflowForm(deps: DashboardDeps, req: Request, res: Response): Promise<WebflowForm> {
  const workspaceId = res.locals.current!.workspaceId;
  const cms = cmsDeps(deps.db, deps.clock, { outbound: deps.outbound, credentials: deps.credentials, timing: deps.timing, siteBuilders: deps.config.siteBuilders }, workspaceId);
  const wanted = typeof req.query.webflowCollection === 'string' ? req.query.webflowCollection : '';
  let collections: WebflowCollectionChoice[];
  let fields: WebflowFieldChoice[] | undefined;
  try {
    collections = await listWebflowCollections(cms);
    fields = collections.some((collection) => collection.id === wanted) ? await webflowCollectionFields(cms, wanted) : undefined;
  } catch (error) {
    if (!(error instanceof DestinationError)) throw error;
    return typedWebflowFields(`Webflow's collections cannot be listed, so type the collection id and field slugs: ${error.message}.`);
  }
  if (collections.length === 0) return typedWebflowFields('The Webflow connection reaches no CMS collection: add one in the Designer, or reconnect Webflow on the Settings page and pick its site.');
  const choices = collections.map((collection) => ({ value: collection.id, label: `${collection.displayName} (site ${collection.siteName})` }));
  const picker = html`<form method="get" action="${pageUrl(workspaceId, 'publishing')}" id="webflow-collection">${selectField('webflowCollection', 'Webflow collection to map', choices, wanted)}<button type="submit" class="secondary">Show its fields</button></form>`;
  const collectionSelect = selectField('webflow.collectionId', 'Webflow collection', choices, fields === undefined ? '' : wanted, 'not Webflow');
  if (fields === undefined) {
    const why = wanted === '' ? 'Webflow: pick the collection above and press Show its fields to map the article to its fields.' : 'Webflow: that collection is not one the connection reaches; pick one above and press Show its fields.';
    return { picker, fields: html`<p class="muted" id="webflow-fields-hint">${why}</p>`, chosen: false };
  }
  const partSelects = WEBFLOW_PARTS.map(([part, label]) =>
    selectField(
      `webflow.fields.${part}`,
      `Webflow field for the ${label}`,
      fields.filter((field) => fieldFits(part, field.type)).map((field) => ({ value: field.slug, label: `${field.displayName} (${field.slug})` })),
      '',
      part === 'body' ? 'not Webflow' : '— not mapped —',
    ),
  );
  return { picker, fields: html`${collectionSelect}
${partSelects}`, chosen: true };
}

export const readDestinations = async (deps: DashboardDeps, res: Response): Promise<Destination[]> =>
  (await readOperation<{ destinations: Destination[] }>(deps, res, 'list_destinations')).destinations;

function lastDelivery(res: Response, item: Destination): SafeHtml {
  const last = item.lastDelivery;
  if (last === null) return html`<span class="muted">none yet</span>`;
  return html`${last.statusMessage ?? last.outcome ?? 'sending'}, ${formatTime(last.at, res.locals.current!.timeZone)}${last.url === null ? '' : html`<br><a href="${last.url}">${last.url}</a>`}${last.note === null ? '' : html`<br><span class="muted">${last.note}</span>`}`;
}

/** Activate, test and remove: owner-only (manage:org), so a member sees the list without them. */
function actions(res: Response, item: Destination): SafeHtml {
  const { destinationId } = item;
  const activate =
    item.role === 'site' && !item.active
      ? operationForm(res, { operationId: 'activate_destination', hidden: { destinationId }, button: `Activate ${item.name}`, buttonClass: 'secondary', inline: true })
      : '';
  return html`${activate}
${operationForm(res, { operationId: 'send_test_event', hidden: { destinationId }, button: `Send test event to ${item.name}`, buttonClass: 'secondary', inline: true })}
${operationForm(res, { operationId: 'remove_destination', hidden: { destinationId }, button: `Remove ${item.name}`, buttonClass: 'danger', inline: true })}`;
}

function destinationRow(res: Response, item: Destination, owner: boolean): SafeHtml {
  const workspaceId = res.locals.current!.workspaceId;
  return html`<tr>
<th scope="row">${item.name}</th>
<td>${KIND_LABELS[item.kind]}</td>
<td>${item.endpointUrl}${item.settings === null ? '' : html`<br><span class="muted">${Object.entries(item.settings).map(([name, value]) => `${name} ${value}`).join(', ')}</span>`}</td>
<td>${item.siteUrl ?? html`<span class="muted">none (feed)</span>`}</td>
<td>${item.role === 'site' ? (item.active ? 'Site, active' : 'Site, inactive') : 'Feed'}</td>
<td>${item.publishAs}</td>
<td>${lastDelivery(res, item)} <a href="${pageUrl(workspaceId, 'publishing/deliveries')}?destinationId=${item.destinationId}">Deliveries to ${item.name}</a></td>
<td>${formatTime(item.createdAt, res.locals.current!.timeZone)}</td>
${owner ? html`<td>${actions(res, item)}</td>` : ''}
</tr>`;
}

export async function destinationsPage(deps: DashboardDeps, req: Request, res: Response): Promise<void> {
  const destinations = await readDestinations(deps, res);
  const owner = res.locals.current!.role === 'owner';
  // Only an owner sees the Add form, so only an owner's visit reads Webflow.
  const webflow = owner ? await webflowForm(deps, req, res) : undefined;
  const table = html`<div class="table-wrap" tabindex="0"><table><caption>Destinations</caption><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Endpoint</th><th scope="col">Site URL</th><th scope="col">Role</th><th scope="col">Publish as</th><th scope="col">Last delivery</th><th scope="col">Created</th>${owner ? html`<th scope="col">Actions</th>` : ''}</tr></thead><tbody>${destinations.map((item) => destinationRow(res, item, owner))}</tbody></table></div>`;
  const create = operationForm(res, {
    operationId: 'create_destination',
    fields: html`${textField('name', 'Name', '', { required: true, placeholder: 'Main blog' })}
${selectField('kind', 'Kind', DESTINATION_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] })), webflow?.chosen === true ? 'webflow' : 'webhook')}
${textField('endpointUrl', 'Endpoint URL', '', { type: 'url', hint: 'webhook only, and required for it: https only', placeholder: 'https://example.com/api/sightline' })}
${textField('siteUrl', 'Site URL', '', { type: 'url', hint: "webhook: where readers find the articles, empty for a feed; Ghost, WordPress: the site's address (required; https for WordPress); Webflow CMS: the site's published address, a custom domain or its webflow.io address (required)", placeholder: 'https://example.com/blog' })}
${textField('ghost.adminApiKey', 'Ghost Admin API key', '', { hint: 'Ghost only: Settings → Integrations → add a custom integration, copy its Admin API key' })}
${textField('wordpress.username', 'WordPress username', '', { hint: 'WordPress only: an Editor or Administrator account' })}
${textField('wordpress.applicationPassword', 'WordPress application password', '', { type: 'password', hint: 'WordPress only: Users → Profile → Application Passwords → add one named Sightline; not the login password' })}
${selectField('wordpress.postType', 'WordPress post type', [{ value: '', label: 'not WordPress (or posts)' }, { value: 'posts', label: 'posts' }, { value: 'pages', label: 'pages' }], '')}
${webflow?.fields ?? ''}
${selectField('publishAs', 'Publish as', [{ value: 'publish', label: 'publish (go live)' }, { value: 'draft', label: 'draft (the receiver keeps it unpublished)' }], 'publish')}`,
    button: 'Create destination',
    showResult: true,
    id: 'create-destination',
  });
  showPage(
    deps,
    res,
    'Destinations',
    html`<p>Published articles are sent as signed webhooks to these endpoints, or written to the customer's CMS (Ghost, WordPress, or a Webflow CMS collection through the workspace's Webflow connection) through its API. The active site destination serves the site and its returned URLs become the articles' addresses; feeds receive a copy of every article.</p>
${destinations.length === 0 ? html`<p class="muted">No destinations yet.</p>` : table}
<h2>Add a destination</h2>
${owner ? html`<p>The signing secret is shown once, on the next page: give it to the receiver then.</p>${webflow?.picker ?? ''}${create}` : html`<p class="muted">Only the workspace owner can add, activate, test or remove destinations.</p>`}`,
    { at: 'publishing' },
  );
}

export const PUBLISHING_DESTINATIONS: DashboardPage = {
  area: 'publishing',
  path: 'publishing',
  title: 'Destinations',
  show: destinationsPage,
};
