import type { Kysely } from 'kysely';

// Migrations take Kysely<unknown>: they must not depend on the current table types, which move on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website_url', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').column('workspace_id').execute();

  await db.schema
    .createTable('brands')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('industry', 'text')
    .addColumn('sub_industry', 'text')
    .addColumn('product_description', 'text')
    .addColumn('authors', 'text', (c) => c.notNull())
    .addColumn('style_reference_urls', 'text', (c) => c.notNull())
    .addColumn('brand_aliases', 'text', (c) => c.notNull())
    .addColumn('brand_exclusions', 'text', (c) => c.notNull())
    .addColumn('tone', 'text')
    .addColumn('primary_color', 'text')
    .addColumn('secondary_color', 'text')
    .addColumn('default_locale', 'text', (c) => c.notNull())
    .addColumn('flexible_scheduling', 'integer', (c) => c.notNull())
    .addColumn('local_business', 'integer', (c) => c.notNull())
    .addColumn('service_area', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('mention_search_requested_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('brand_guidelines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('avoid', 'text', (c) => c.notNull())
    .addColumn('instead', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('brand_guidelines_workspace').on('brand_guidelines').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('brand_products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('pricing', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('usps', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('brand_products_workspace').on('brand_products').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('brand_icps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('industry', 'text', (c) => c.notNull())
    .addColumn('company_size', 'text')
    .addColumn('pain_points', 'text', (c) => c.notNull())
    .addColumn('buying_triggers', 'text', (c) => c.notNull())
    .addColumn('objections', 'text', (c) => c.notNull())
    .addColumn('preferred_channels', 'text', (c) => c.notNull())
    .addColumn('demographics', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('brand_icps_workspace').on('brand_icps').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('team_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('team_invites_workspace').on('team_invites').columns(['workspace_id', 'email']).execute();

  await db.schema
    .createTable('billing_accounts')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cycle', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('trial_ends_at', 'bigint')
    .addColumn('next_charge_at', 'bigint')
    .addColumn('next_charge_cents', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('billing_addons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_addons_workspace').on('billing_addons').column('workspace_id').execute();

  await db.schema
    .createTable('billing_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_payments_workspace').on('billing_payments').columns(['workspace_id', 'paid_at']).execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('api_key_id', 'text')
    .addColumn('subject', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_messages_created').on('support_messages').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'support_messages',
    'billing_payments',
    'billing_addons',
    'billing_accounts',
    'team_invites',
    'brand_icps',
    'brand_products',
    'brand_guidelines',
    'brands',
    'api_keys',
    'memberships',
    'users',
    'workspaces',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
