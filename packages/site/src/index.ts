export { AI_CRAWLERS } from './crawlers.js';
export { aiCrawlerOf, type CrawlReportOptions, reportCrawlerVisit, withCrawlerReports } from './crawl.js';
export type { ReceiverOptions } from './receive.js';
export { answer, type Article, type ArticleAuthor, type ArticleFaq, type ArticleImage, type Delivery, type DeliveryAnswer, type ChangeDelivery, type ChangeEvent, type DeliveryEvent, type EventName, type SightlineChange } from './types.js';
export { DEFAULT_TOLERANCE_SECONDS, type Failure, type HeadersLike, MemorySeenDeliveries, type SeenDeliveries, type Verification, type VerifyOptions, type ChangeVerification, verifyChangeEvent, verifyDelivery } from './verify.js';
export { handleDelivery } from './web.js';
