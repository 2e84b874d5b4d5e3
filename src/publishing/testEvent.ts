import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { recordDelivery, TEST_DELIVERY_ATTEMPTS } from './deliveries.js';
import { findDestination, type DestinationRow } from './destinations.js';

/** The sample article of a `test` event: every required field and the common optional ones, so a receiver's parsing is exercised. */
function sampleArticle(destination: DestinationRow, now: number): Record<string, unknown> {
  const markdown = '## This is a test\n\nSightline sent this sample article to check the endpoint. Answer 200 and discard it.';
  return {
    id: 'test_sample_article',
    title: 'Sightline test event',
    slug: 'sightline-test-event',
    html: '<h2>This is a test</h2>\n<p>Sightline sent this sample article to check the endpoint. Answer 200 and discard it.</p>\n',
    markdown,
    metaTitle: 'Sightline test event',
    metaDescription: 'A sample article sent to check the webhook endpoint.',
    keywords: ['test'],
    faq: [{ question: 'Should this be published?', answer: 'No: a test event is discarded by the receiver.' }],
    language: 'en',
    publishedAt: now,
    status: destination.publish_as,
  };
}

/** Queues one `test` delivery: signed and sent like any delivery, once, by the job worker; its outcome lands on the destination. */
export async function sendTestEvent(db: Kysely<Database>, clock: Clock, workspaceId: string, destinationId: string) {
  const destination = await findDestination(db, workspaceId, destinationId);
  const { deliveryId, jobId } = await recordDelivery(db, clock, {
    workspaceId,
    destinationId: destination.id,
    articleId: null,
    event: 'test',
    article: sampleArticle(destination, clock.now()),
    maxAttempts: TEST_DELIVERY_ATTEMPTS,
  });
  return { destinationId: destination.id, deliveryId, jobId, event: 'test' as const, queued: true as const };
}
