import type { AuthenticatedOperation } from '../define.js';
import addQuery from './add_query.js';
import listQueries from './list_queries.js';

export const queriesTools: readonly AuthenticatedOperation[] = [listQueries, addQuery];
