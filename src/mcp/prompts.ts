import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type ListPromptsResult, type Prompt } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { recordId } from '../../tools/fields.js';
import { findArticle } from '../content/articles.js';
import { BadInputError, ServiceError } from '../errors.js';
import { describeIssues } from '../shared/issues.js';
import { mayUseAll, planOnly, spendCall, type McpCaller, type McpDeps } from './caller.js';
import { markdownText } from './markdownText.js';
import { RESOURCE_LIST_TTL_MS, type Cacheable } from './resources.js';

/** What a prompt says: an opening, one line for each of its tools (in their order), and a closing. */
interface Workflow<Tool extends string> {
  intro: string;
  how: Record<Tool, string>;
  outro: string;
}

/**
 * A prompt for one of the main workflows. It belongs to a toolset, and is listed only to a caller who may call every
 * tool it names: a prompt that sends an agent to a tool it cannot call wastes the person's turn, and tools/list would
 * not show that tool either.
 */
interface WorkflowPrompt {
  name: string;
  title: string;
  description: string;
  toolset: string;
  /** The tools its message names, in the order an agent calls them. */
  tools: readonly string[];
  arguments: z.ZodObject;
  /** The message's text for these arguments; refuses them with a ServiceError. */
  render(deps: McpDeps, caller: McpCaller, args: Record<string, string>): Promise<string>;
}

function workflowPrompt<S extends z.ZodObject, const Tools extends readonly string[]>(definition: {
  name: string;
  title: string;
  description: string;
  toolset: string;
  tools: Tools;
  arguments: S;
  workflow(deps: McpDeps, caller: McpCaller, args: z.output<S>): Workflow<Tools[number]> | Promise<Workflow<Tools[number]>>;
}): WorkflowPrompt {
  const { workflow, ...prompt } = definition;
  return {
    ...prompt,
    render: async (deps, caller, args) => {
      const parsed = definition.arguments.safeParse(args, { reportInput: true });
      if (!parsed.success) throw new BadInputError(describeIssues(parsed.error.issues));
      const { intro, how, outro } = await workflow(deps, caller, parsed.data);
      return [intro, ...definition.tools.map((tool: Tools[number], i) => `${i + 1}. \`${tool}\` ${how[tool]}`), outro].join('\n');
    },
  };
}

const weeklyReview = workflowPrompt({
  name: 'weekly_visibility_review',
  title: 'Weekly visibility review',
  description: "Review the week's AI visibility: score, trend, share of voice, cited sources, the week against the one before, and the wins; ends with next steps.",
  toolset: 'visibility',
  tools: ['get_visibility_score', 'get_visibility_trend', 'get_share_of_voice', 'get_citation_sources', 'get_reports_summary', 'get_reports_wins'],
  arguments: z.strictObject({}),
  workflow: () => ({
    intro: "Review this week's AI visibility of the brand for me. Call these tools in this order:",
    how: {
      get_visibility_score: 'with days "7": the headline score and each engine\'s components.',
      get_visibility_trend: 'with days "30": whether this week continues a rise or a fall; compare days only where their intervals do not overlap.',
      get_share_of_voice: 'with days "7": the brand against its tracked competitors.',
      get_citation_sources: 'with days "7": the sites the engines cite most, the targets for content and outreach.',
      get_reports_summary:
        'with days "7": the week against the week before, with visits and leads from AI answers (null until the Reports screen is activated: then skip this step and the next).',
      get_reports_wins: 'with days "7": the wins, each traceable to its rows.',
    },
    outro:
      'Then write a short review: the score and share of voice with their change (call a change up or down only where the tools do), the wins, ' +
      'and at most three next steps, each naming the query, page or site it is about. Quote figures as the tools give them; do not estimate any.',
  }),
});

const planNextMonth = workflowPrompt({
  name: 'plan_next_month',
  title: "Plan next month's content",
  description: "Fill next month's content calendar: capacity, the best content ideas, then new titles from the writer model for the slots left, each approved by the person.",
  toolset: 'content',
  tools: ['get_planning_capacity', 'get_content_ideas', 'plan_content_idea', 'plan_titles', 'commit_planned_titles', 'list_content'],
  arguments: z.strictObject({
    topic: z.string().trim().min(1).max(200).optional().describe('What the new titles should be about; default: the brand memory decides.'),
  }),
  workflow: (_deps, _caller, args) => ({
    intro: "Plan next month's articles with me. Call these tools in this order, and ask me before each step that plans something:",
    how: {
      get_planning_capacity: 'the open slots this month and next; if next month has none, say so and stop.',
      get_content_ideas: 'the ideas, best score first; an unscored idea has not been measured yet.',
      plan_content_idea: 'with the queryId of each idea I pick from the best ones, one call per idea, no more than the open slots.',
      plan_titles: `for the slots still open${args.topic === undefined ? '' : `, with topic "${markdownText(args.topic)}"`}: candidate titles from the writer model, nothing saved. Show them to me.`,
      commit_planned_titles: 'with the titles I approve, in the order I give them; tell me about any that come back in notPlanned.',
      list_content: 'the calendar as it now stands: show me next month.',
    },
    outro: 'Every article planned takes a publish slot in the calendar; nothing is written or published by this plan.',
  }),
});

const outreachCampaign = workflowPrompt({
  name: 'article_outreach_campaign',
  title: 'Outreach campaign for an article',
  description: 'Earn links to one published article: choose prospects, find who to write to, draft each email, and send the ones the person approves.',
  toolset: 'outreach',
  tools: ['list_outreach_prospects', 'add_outreach_prospects', 'find_outreach_contact', 'draft_outreach_reply', 'update_outreach_draft', 'queue_outreach_send', 'get_outreach_thread'],
  arguments: z.strictObject({
    articleId: recordId().describe('The published article to earn links to (its contentId from list_content).'),
  }),
  workflow: async (deps, caller, args) => {
    const article = await findArticle(deps.db, caller.principal.workspaceId, args.articleId);
    if (article.url === null) throw BadInputError.field('articleId', `article ${article.id} has no live page yet; an outreach campaign sends people to it once it is published`);
    const title = markdownText(article.title);
    const keyword = markdownText(article.keyword);
    return {
      intro: `Run an outreach campaign for the article "${title}" (${article.url}) with me. Call these tools in this order:`,
      how: {
        list_outreach_prospects: `with stage "identified": the sites already found; pick those whose reason fits "${keyword}".`,
        add_outreach_prospects: 'with any further sites I name (a url or a domain each).',
        find_outreach_contact: 'for each chosen prospect that has no contact yet.',
        draft_outreach_reply: `for each prospect, with instructions to offer the article (${article.url}) as a resource for their readers on ${keyword}. Show me each draft.`,
        update_outreach_draft: 'with the edits I ask for.',
        queue_outreach_send: 'without confirm first: show me the exact email, recipient and send time; call it again with confirm: true only for the emails I approve.',
        get_outreach_thread: 'later, for the replies; answer them with draft_outreach_reply.',
      },
      outro: 'Send nothing I have not seen: every email goes out from the workspace mailbox under my name.',
    };
  },
});

export const WORKFLOW_PROMPTS: readonly WorkflowPrompt[] = [weeklyReview, planNextMonth, outreachCampaign];

function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

function isListed(deps: McpDeps, caller: McpCaller, prompt: WorkflowPrompt): boolean {
  return (caller.toolsets === null || caller.toolsets.has(prompt.toolset)) && mayUseAll(deps.registry, caller, prompt.tools);
}

function describePrompt(prompt: WorkflowPrompt): Prompt {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: Object.entries(prompt.arguments.shape).map(([name, schema]) => ({
      name,
      ...(schema.description === undefined ? {} : { description: schema.description }),
      required: !schema.safeParse(undefined).success,
    })),
  };
}

/** prompts/list: the workflows whose every tool the caller may call on this connection. */
export function listPrompts(deps: McpDeps, caller: McpCaller): Cacheable<ListPromptsResult> {
  const prompts = WORKFLOW_PROMPTS.filter((prompt) => isListed(deps, caller, prompt)).map(describePrompt);
  return { prompts, ttlMs: RESOURCE_LIST_TTL_MS, cacheScope: 'private' };
}

/**
 * prompts/get. An unknown name, a prompt the caller is not shown, and arguments that are missing or wrong (an article
 * of another workspace is as unknown as one that never existed) all answer -32602. A prompt it may get spends a point
 * of the plan limit, as a call does.
 */
export async function getPrompt(deps: McpDeps, caller: McpCaller, name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  const prompt = WORKFLOW_PROMPTS.find((candidate) => candidate.name === name);
  if (prompt === undefined || !isListed(deps, caller, prompt)) throw invalidParams(`unknown prompt ${name}`);
  await spendCall(deps.pipeline, caller.principal, planOnly('prompts/get'));
  let text: string;
  try {
    text = await prompt.render(deps, caller, args ?? {});
  } catch (error) {
    if (error instanceof ServiceError && (error.status === 404 || error.status === 400)) throw invalidParams(error.message);
    throw error;
  }
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
