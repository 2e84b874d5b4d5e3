import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { verifyChangeEvent, type ChangeDelivery } from '../../packages/site/src/index.js';
import { closeServer, readBody, startHttpsServer } from '../support/localServers.js';

type Json = Record<string, unknown>;

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Json;
  raw: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** Slack's documented incoming-webhook payload: `text`, and Block Kit blocks (≤ 50; header plain_text ≤ 150; section text 1-3000). */
export function slackProblem(body: Json): string | undefined {
  if (!isString(body.text) || body.text === '') return 'text is missing';
  if (!Array.isArray(body.blocks) || body.blocks.length > 50) return 'blocks is not a list of at most 50';
  for (const block of body.blocks as Json[]) {
    const text = block.text as Json | undefined;
    if (block.type === 'header') {
      if (text?.type !== 'plain_text' || !isString(text.text) || text.text.length > 150) return 'a header needs plain_text of at most 150 characters';
    } else if (block.type === 'section') {
      if (!['mrkdwn', 'plain_text'].includes(String(text?.type)) || !isString(text?.text) || text.text.length < 1 || text.text.length > 3000) return 'a section text is 1-3000 characters';
    } else return `unexpected block ${String(block.type)}`;
  }
  return undefined;
}

/** Discord's Execute Webhook: content ≤ 2000, ≤ 10 embeds (title ≤ 256, description ≤ 4096, ≤ 25 fields of name ≤ 256 and value ≤ 1024, 6000 in all). */
export function discordProblem(body: Json): string | undefined {
  if (isString(body.content) && body.content.length > 2000) return 'content is over 2000 characters';
  const embeds = body.embeds as Json[] | undefined;
  if (!Array.isArray(embeds) || embeds.length > 10) return 'embeds is not a list of at most 10';
  let total = 0;
  for (const embed of embeds) {
    if (!isString(embed.title) || embed.title.length > 256) return 'embed title over 256';
    if (isString(embed.description) && embed.description.length > 4096) return 'embed description over 4096';
    if (typeof embed.color !== 'number' || embed.color < 0 || embed.color > 0xffffff) return 'embed color is not a 24-bit integer';
    if (isString(embed.timestamp) && Number.isNaN(Date.parse(embed.timestamp))) return 'embed timestamp is not ISO 8601';
    const fields = (embed.fields ?? []) as Json[];
    if (fields.length > 25) return 'more than 25 fields';
    for (const field of fields) {
      if (!isString(field.name) || field.name.length > 256 || !isString(field.value) || field.value.length > 1024) return 'a field is over its limits';
      total += field.name.length + field.value.length;
    }
    total += embed.title.length + (isString(embed.description) ? embed.description.length : 0);
  }
  if (total > 6000) return 'embeds over 6000 characters in all';
  const mentions = body.allowed_mentions as Json | undefined;
  if (!Array.isArray(mentions?.parse)) return 'allowed_mentions.parse is missing';
  return undefined;
}

/** A Teams Workflows webhook posting an Adaptive Card: a message whose attachment is an AdaptiveCard with a body. */
export function teamsProblem(body: Json): string | undefined {
  if (body.type !== 'message') return 'type is not message';
  const attachment = (body.attachments as Json[] | undefined)?.[0];
  if (attachment?.contentType !== 'application/vnd.microsoft.card.adaptive') return 'the attachment is not an adaptive card';
  const card = attachment.content as Json;
  if (card.type !== 'AdaptiveCard' || !isString(card.version)) return 'content is not an AdaptiveCard with a version';
  if (!Array.isArray(card.body) || (card.body as Json[]).some((element) => !isString(element.type))) return 'the card body is not a list of elements';
  return undefined;
}

/**
 * One local https server playing Slack (/slack, answers 200 `ok`), Discord (/discord, 204), Teams Workflows (/teams,
 * 202) and a customer's webhook receiver (/events, checked with @sightline/site's verifyChangeEvent). A payload outside
 * the vendor's documented format is answered 400 and its reason kept in `problems`, as the vendors refuse it.
 */
export class AlertEndpoints {
  readonly received: Received[] = [];
  readonly events: ChangeDelivery[] = [];
  readonly problems: string[] = [];
  eventSecret = '';
  private readonly replies = new Map<string, Reply[]>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly now: () => number,
  ) {}

  static async start(now: () => number): Promise<AlertEndpoints> {
    const { server, port } = await startHttpsServer();
    const endpoints = new AlertEndpoints(server, `https://127.0.0.1:${port}`, now);
    server.on('request', (req, res) => void endpoints.handle(req, res));
    return endpoints;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** The next answers at `path`, before the vendor's usual one. */
  reply(path: string, ...replies: Reply[]): void {
    this.replies.set(path, [...(this.replies.get(path) ?? []), ...replies]);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const raw = (await readBody(req)).toString('utf8');
    const body = JSON.parse(raw) as Json;
    const problem = await this.check(path, req.headers, raw, body);
    if (problem !== undefined) {
      this.problems.push(`${path}: ${problem}`);
      res.writeHead(400, { 'content-type': 'text/plain' }).end(problem);
      return;
    }
    this.received.push({ path, headers: req.headers, body, raw });
    const reply = this.replies.get(path)?.shift();
    if (reply !== undefined) {
      res.writeHead(reply.status, reply.headers).end('try later');
      return;
    }
    if (path === '/slack') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    else if (path === '/discord') res.writeHead(204).end();
    else if (path === '/teams') res.writeHead(202).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }

  private async check(path: string, headers: IncomingHttpHeaders, raw: string, body: Json): Promise<string | undefined> {
    if (headers['content-type'] !== 'application/json') return `content-type is ${headers['content-type']}`;
    if (path === '/slack') return slackProblem(body);
    if (path === '/discord') return discordProblem(body);
    if (path === '/teams') return teamsProblem(body);
    if (path === '/events') {
      const verified = await verifyChangeEvent({ secret: this.eventSecret, headers, rawBody: raw, now: this.now });
      if (!verified.ok) return verified.message;
      this.events.push(verified.delivery);
      return undefined;
    }
    return `nothing at ${path}`;
  }
}
