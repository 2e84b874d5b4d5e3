import type { AuthenticatedOperation } from '../define.js';
import archiveContent from './archive_content.js';
import commitPlannedTitles from './commit_planned_titles.js';
import deletePlannedTitle from './delete_planned_title.js';
import generateArticle from './generate_article.js';
import getArticlePolicy from './get_article_policy.js';
import getContentOptimizer from './get_content_optimizer.js';
import getContentIdeas from './get_content_ideas.js';
import getInternalLinks from './get_internal_links.js';
import previewArticle from './preview_article.js';
import getPlanningCapacity from './get_planning_capacity.js';
import hideContentIdea from './hide_content_idea.js';
import listContent from './list_content.js';
import planContentIdea from './plan_content_idea.js';
import planTitles from './plan_titles.js';
import publishContent from './publish_content.js';
import rescheduleContent from './reschedule_content.js';
import updateArticleMeta from './update_article_meta.js';
import updateArticlePolicy from './update_article_policy.js';

export const contentTools: readonly AuthenticatedOperation[] = [
  listContent,
  getContentIdeas,
  hideContentIdea,
  planContentIdea,
  planTitles,
  commitPlannedTitles,
  getPlanningCapacity,
  rescheduleContent,
  generateArticle,
  deletePlannedTitle,
  archiveContent,
  publishContent,
  updateArticleMeta,
  getArticlePolicy,
  updateArticlePolicy,
  getContentOptimizer,
  getInternalLinks,
  previewArticle,
];
