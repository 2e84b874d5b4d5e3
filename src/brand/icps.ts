import type { Selectable } from 'kysely';
import type { BrandIcpsTable } from '../../db/schema.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { toJson } from '../shared/json.js';
import { icpRecord } from './records.js';
import type { BrandScope } from './scope.js';
import { requireOnCreate, writeMode, type RecordShape } from './writeMode.js';

export interface IcpFields {
  title?: string;
  /** The buyer's industry, in free text: not the dashboard's industry list. */
  industry?: string;
  /** An empty string clears it. */
  companySize?: string;
  painPoints?: string[];
  buyingTriggers?: string[];
  objections?: string[];
  preferredChannels?: string[];
  demographics?: Record<string, string>;
}

export interface IcpWrite extends IcpFields {
  profileId?: string;
  del?: boolean;
}

const BUYER_PROFILE: RecordShape<keyof IcpFields> = {
  noun: 'buyer profile',
  idField: 'profileId',
  fields: ['title', 'industry', 'companySize', 'painPoints', 'buyingTriggers', 'objections', 'preferredChannels', 'demographics'],
};

type IcpColumns = Omit<Selectable<BrandIcpsTable>, 'id' | 'workspace_id' | 'created_at' | 'updated_at'>;

/** The stored columns once the sent fields are applied: a field left out keeps its value, lists and demographics replace the stored ones. */
function applyFields(base: IcpColumns, fields: IcpFields): IcpColumns {
  return {
    title: fields.title ?? base.title,
    industry: fields.industry ?? base.industry,
    company_size: fields.companySize === undefined ? base.company_size : fields.companySize || null,
    pain_points: fields.painPoints === undefined ? base.pain_points : toJson(fields.painPoints),
    buying_triggers: fields.buyingTriggers === undefined ? base.buying_triggers : toJson(fields.buyingTriggers),
    objections: fields.objections === undefined ? base.objections : toJson(fields.objections),
    preferred_channels: fields.preferredChannels === undefined ? base.preferred_channels : toJson(fields.preferredChannels),
    demographics: fields.demographics === undefined ? base.demographics : toJson(fields.demographics),
  };
}

/** Creates (no profileId), updates (profileId and fields) or deletes (profileId and del: true) one buyer profile. */
export async function writeBrandIcp(scope: BrandScope, input: IcpWrite) {
  const { db, workspaceId } = scope;
  const mode = writeMode(BUYER_PROFILE, input.profileId, input.del, input);
  const now = scope.clock.now();

  if (mode.action === 'delete') {
    const result = await db.deleteFrom('brand_icps').where('id', '=', mode.id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new NotFoundError('buyer profile', mode.id);
    return { action: 'deleted' as const, profileId: mode.id };
  }

  if (mode.action === 'update') {
    const existing = await db.selectFrom('brand_icps').selectAll().where('id', '=', mode.id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (existing === undefined) throw new NotFoundError('buyer profile', mode.id);
    const columns = applyFields(existing, input);
    await db
      .updateTable('brand_icps')
      .set({ ...columns, updated_at: now })
      .where('id', '=', mode.id)
      .where('workspace_id', '=', workspaceId)
      .execute();
    return { action: 'updated' as const, profileId: mode.id, buyerProfile: icpRecord({ ...existing, ...columns, updated_at: now }) };
  }

  requireOnCreate(BUYER_PROFILE, input, ['title', 'industry', 'demographics']);
  const empty: IcpColumns = {
    title: input.title,
    industry: input.industry,
    demographics: toJson(input.demographics),
    company_size: null,
    pain_points: '[]',
    buying_triggers: '[]',
    objections: '[]',
    preferred_channels: '[]',
  };
  const row: Selectable<BrandIcpsTable> = { id: newId('icp'), workspace_id: workspaceId, ...applyFields(empty, input), created_at: now, updated_at: now };
  await db.insertInto('brand_icps').values(row).execute();
  return { action: 'created' as const, profileId: row.id, buyerProfile: icpRecord(row) };
}
