import type { AuthenticatedOperation } from '../define.js';

export const jobsTools: readonly AuthenticatedOperation[] = [];
