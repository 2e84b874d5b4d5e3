import type { SocialSourceName } from '../../../db/schema.js';

// Placeholder until the sources branch is merged (its index.ts replaces this file).
export const SOURCE_SETTINGS: Record<SocialSourceName, string> = {
  hackernews: 'remove hackernews from SOCIAL_SOURCES_OFF',
  stackexchange: 'remove stackexchange from SOCIAL_SOURCES_OFF',
  bluesky: 'BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD',
  reddit: 'REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (an app Reddit approved)',
};
