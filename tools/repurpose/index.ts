import type { AuthenticatedOperation } from '../define.js';
import listRepurposeChannels from './list_repurpose_channels.js';
import markRepurposePosted from './mark_repurpose_posted.js';
import pushRepurpose from './push_repurpose.js';

/** The repurpose operations that reach the scheduling tool, and the record of posts that went out. */
export const repurposeTools: readonly AuthenticatedOperation[] = [listRepurposeChannels, pushRepurpose, markRepurposePosted];
