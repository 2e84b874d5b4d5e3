import type { AuthenticatedOperation } from '../define.js';
import listChanges from './list_changes.js';

export const changesTools: readonly AuthenticatedOperation[] = [listChanges];
