import type { z } from 'zod';
import type { ProviderSlots } from '../limits/store.js';

export interface WriterUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface WriterPrompt {
  /** The brand memory and the rules of the task. */
  system: string;
  /** The task itself. */
  user: string;
  maxTokens?: number;
  temperature?: number;
}

export interface StructuredPrompt<T> extends WriterPrompt {
  /** Names the JSON schema sent as `response_format` (letters, digits, `_` and `-`). */
  schemaName: string;
  /** The answer must parse with it; its JSON Schema is what the model is asked for. */
  schema: z.ZodType<T>;
}

/** Where usage of one piece of work (a job) is added up. */
export interface UsageMeter {
  add(usage: WriterUsage): void;
}

/** The model that writes: titles, buyer profiles, whole articles. */
export interface WriterModel {
  readonly model: string;
  /** An answer in the shape of `schema`; one that does not validate is asked for once more, then the call fails with the reason. */
  structured<T>(prompt: StructuredPrompt<T>, meter?: UsageMeter): Promise<T>;
  /** The model texts are embedded with (WRITER_EMBEDDING_MODEL); undefined when none is configured. */
  readonly embeddingModel: string | undefined;
  /** One vector per text, in order; fails when no embedding model is configured. */
  embed(texts: readonly string[], meter?: UsageMeter): Promise<number[][]>;
}

/** What writer calls are made for: the writer_usage ledger and get_billing add tokens up by it. */
export const WRITER_PURPOSES = ['plan_titles', 'idea_title', 'draft_icp', 'suggest_icps', 'article', 'sentiment', 'positioning', 'network_match', 'outreach_email', 'social_relevance', 'social_reply', 'repurpose', 'digest_summary'] as const;
export type WriterPurpose = (typeof WRITER_PURPOSES)[number];

/** Whom a writer call is booked to. */
export interface WriterCall {
  workspaceId: string;
  purpose: WriterPurpose;
  /** The job's meter, when the call is part of one: its tokens land on the job row as well. */
  meter?: UsageMeter;
}

/**
 * The writer as operations and jobs reach it: a call cannot be made without naming its workspace and purpose, so
 * every call's tokens reach the ledger. Call it outside any transaction (the ledger is written on its own).
 */
export interface Writer {
  readonly model: string;
  structured<T>(prompt: StructuredPrompt<T>, call: WriterCall): Promise<T>;
  readonly embeddingModel: string | undefined;
  embed(texts: readonly string[], call: WriterCall): Promise<number[][]>;
}

/** The writer behind its concurrency limit, which holds across every instance. */
export function limitedWriter(writer: WriterModel, slots: ProviderSlots): WriterModel {
  return {
    model: writer.model,
    embeddingModel: writer.embeddingModel,
    structured: (prompt, meter) => slots.run(() => writer.structured(prompt, meter)),
    embed: (texts, meter) => slots.run(() => writer.embed(texts, meter)),
  };
}
