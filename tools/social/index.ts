import type { AuthenticatedOperation } from '../define.js';
import draftSocialReply from './draft_social_reply.js';
import getSocialStats from './get_social_stats.js';
import listSocialThreads from './list_social_threads.js';
import searchSocialThreads from './search_social_threads.js';
import setSocialThreadStatus from './set_social_thread_status.js';

export const socialTools: readonly AuthenticatedOperation[] = [listSocialThreads, getSocialStats, setSocialThreadStatus, draftSocialReply, searchSocialThreads];
