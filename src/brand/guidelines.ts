import type { Selectable } from 'kysely';
import type { BrandGuidelinesTable } from '../../db/schema.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { guidelineRecord } from './records.js';
import type { BrandScope } from './scope.js';

export const GUIDELINE_TYPES = ['tone', 'terminology', 'topic', 'style', 'factual'] as const;
export type GuidelineType = (typeof GUIDELINE_TYPES)[number];

export interface NewGuideline {
  type: GuidelineType;
  avoid: string;
  instead: string;
}

/** A new guideline starts switched on: adding one means the writer should follow it from now on. */
export async function addBrandGuideline(scope: BrandScope, input: NewGuideline) {
  const row: Selectable<BrandGuidelinesTable> = {
    id: newId('gl'),
    workspace_id: scope.workspaceId,
    type: input.type,
    avoid: input.avoid,
    instead: input.instead,
    active: 1,
    created_at: scope.clock.now(),
  };
  await scope.db.insertInto('brand_guidelines').values(row).execute();
  return { guidelineId: row.id, guideline: guidelineRecord(row) };
}

export async function setBrandGuidelineActive(scope: BrandScope, guidelineId: string, on: boolean) {
  const row = await scope.db
    .updateTable('brand_guidelines')
    .set({ active: on ? 1 : 0 })
    .where('id', '=', guidelineId)
    .where('workspace_id', '=', scope.workspaceId)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('guideline', guidelineId);
  return { guidelineId, guideline: guidelineRecord(row) };
}

export async function removeBrandGuideline(scope: BrandScope, guidelineId: string) {
  const result = await scope.db
    .deleteFrom('brand_guidelines')
    .where('id', '=', guidelineId)
    .where('workspace_id', '=', scope.workspaceId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFoundError('guideline', guidelineId);
  return { guidelineId, removed: true as const };
}
