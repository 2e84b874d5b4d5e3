import type { AuthenticatedOperation } from '../define.js';
import addQuery from './add_query.js';
import listQueries from './list_queries.js';
import removeQuery from './remove_query.js';
import updateQuery from './update_query.js';

export const queriesTools: readonly AuthenticatedOperation[] = [listQueries, addQuery, updateQuery, removeQuery];
