import type { AuthenticatedOperation } from '../define.js';
import addManagedBacklink from './add_managed_backlink.js';
import getBacklinkStats from './get_backlink_stats.js';
import listBacklinks from './list_backlinks.js';
import removeManagedBacklink from './remove_managed_backlink.js';

export const backlinksTools: readonly AuthenticatedOperation[] = [listBacklinks, getBacklinkStats, addManagedBacklink, removeManagedBacklink];
