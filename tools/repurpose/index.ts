import type { AuthenticatedOperation } from '../define.js';
import generateRepurpose from './generate_repurpose.js';
import listRepurpose from './list_repurpose.js';
import listRepurposeChannels from './list_repurpose_channels.js';
import markRepurposePosted from './mark_repurpose_posted.js';
import pushRepurpose from './push_repurpose.js';
import updateRepurposeDraft from './update_repurpose_draft.js';

export const repurposeTools: readonly AuthenticatedOperation[] = [listRepurpose, generateRepurpose, updateRepurposeDraft, listRepurposeChannels, pushRepurpose, markRepurposePosted];
