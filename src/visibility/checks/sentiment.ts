import { z } from 'zod';
import type { Writer, WriterCall } from '../../writer/model.js';
import type { Sentiment } from './record.js';

const sentimentAnswer = z.object({
  label: z.enum(['positive', 'neutral', 'negative']).describe('How the passage presents the named company or product'),
  // A refinement, not .min()/.max(): strict structured-output modes refuse some numeric bounds (see modelText).
  score: z
    .number()
    .int()
    .refine((value) => value >= 0 && value <= 100, 'must be 0 to 100')
    .describe('0 (very negative) to 100 (very positive); 50 is neutral'),
});

const SYSTEM = [
  'You rate how a passage from an AI assistant\'s answer presents one company or product.',
  '- positive: recommends it, praises it, or lists it as a good choice.',
  '- neutral: names or describes it without judging it.',
  '- negative: warns against it, criticises it, or names it as worse than others.',
  'Rate only the named company, not the others in the passage. Score 0 (very negative) to 100 (very positive), 50 neutral.',
].join('\n');

/** The second pass over the passage around a mention: the writer model's label and 0-100 score. */
export async function rateSentiment(writer: Writer, subjectName: string, passage: string, call: WriterCall): Promise<Sentiment> {
  return writer.structured(
    { system: SYSTEM, user: `Company or product: ${subjectName}\n\nPassage:\n${passage}`, schemaName: 'mention_sentiment', schema: sentimentAnswer, temperature: 0 },
    call,
  );
}
