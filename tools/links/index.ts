import type { AuthenticatedOperation } from '../define.js';
import addSitePages from './add_site_pages.js';
import detectSitePages from './detect_site_pages.js';
import listSitePages from './list_site_pages.js';

export const linksTools: readonly AuthenticatedOperation[] = [listSitePages, addSitePages, detectSitePages];
