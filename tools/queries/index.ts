import type { AuthenticatedOperation } from '../define.js';

export const queriesTools: readonly AuthenticatedOperation[] = [];
