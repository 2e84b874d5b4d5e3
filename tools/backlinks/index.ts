import type { AuthenticatedOperation } from '../define.js';
import getBacklinkStats from './get_backlink_stats.js';
import listBacklinks from './list_backlinks.js';

export const backlinksTools: readonly AuthenticatedOperation[] = [listBacklinks, getBacklinkStats];
