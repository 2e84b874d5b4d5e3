import type { AuthenticatedOperation } from '../define.js';
import addCompetitor from './add_competitor.js';
import getCitationSources from './get_citation_sources.js';
import getCompetitors from './get_competitors.js';
import getSentiment from './get_sentiment.js';
import getShareOfVoice from './get_share_of_voice.js';
import getVisibilityScore from './get_visibility_score.js';
import getVisibilityTrend from './get_visibility_trend.js';
import listCitations from './list_citations.js';
import removeCompetitor from './remove_competitor.js';
import runVisibilityCheck from './run_visibility_check.js';

export const visibilityTools: readonly AuthenticatedOperation[] = [getVisibilityScore, getVisibilityTrend, getShareOfVoice, getCitationSources, getSentiment, listCitations, runVisibilityCheck, getCompetitors, addCompetitor, removeCompetitor];
