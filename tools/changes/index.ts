import type { AuthenticatedOperation } from '../define.js';
import getDigest from './get_digest.js';
import listChanges from './list_changes.js';

export const changesTools: readonly AuthenticatedOperation[] = [listChanges, getDigest];
