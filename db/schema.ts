/**
 * Table types for kysely. Both dialects store timestamps as epoch milliseconds (bigint), booleans as
 * 0/1 integers and lists as JSON text, so one set of queries serves SQLite and PostgreSQL alike.
 */
export interface WorkspacesTable {
  id: string;
  name: string;
  website_url: string;
  plan: string;
  created_at: number;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: 'owner' | 'member';
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  user_id: string | null;
  name: string;
  key_hash: string;
  /** The first characters of the key, safe to show so people can tell keys apart. */
  display_prefix: string;
  /** Space-separated scope list. */
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface BrandsTable {
  workspace_id: string;
  name: string;
  industry: string | null;
  sub_industry: string | null;
  product_description: string | null;
  authors: string;
  style_reference_urls: string;
  brand_aliases: string;
  brand_exclusions: string;
  tone: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  default_locale: string;
  flexible_scheduling: number;
  local_business: number;
  service_area: string | null;
  reviewed_at: number | null;
  mention_search_requested_at: number | null;
  updated_at: number;
}

export interface BrandGuidelinesTable {
  id: string;
  workspace_id: string;
  type: string;
  avoid: string;
  instead: string;
  active: number;
  created_at: number;
}

export interface BrandProductsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  url: string | null;
  features: string;
  pricing: string | null;
  category: string;
  usps: string;
  created_at: number;
  updated_at: number;
}

export interface BrandIcpsTable {
  id: string;
  workspace_id: string;
  title: string;
  industry: string;
  company_size: string | null;
  pain_points: string;
  buying_triggers: string;
  objections: string;
  preferred_channels: string;
  demographics: string;
  created_at: number;
  updated_at: number;
}

export interface TeamInvitesTable {
  id: string;
  workspace_id: string;
  email: string;
  role: 'owner' | 'member';
  token_hash: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export interface BillingAccountsTable {
  workspace_id: string;
  status: 'trial' | 'active' | 'cancelling';
  cycle: 'monthly' | 'yearly';
  currency: string;
  trial_ends_at: number | null;
  next_charge_at: number | null;
  next_charge_cents: number | null;
  updated_at: number;
}

export interface BillingAddonsTable {
  id: string;
  workspace_id: string;
  name: string;
  quantity: number;
  unit_price_cents: number;
  created_at: number;
}

export interface BillingPaymentsTable {
  id: string;
  workspace_id: string;
  amount_cents: number;
  currency: string;
  status: 'paid' | 'failed' | 'refunded';
  description: string;
  paid_at: number;
}

export interface SupportMessagesTable {
  id: string;
  workspace_id: string;
  api_key_id: string | null;
  subject: string | null;
  message: string;
  contact_email: string | null;
  created_at: number;
}

export type ApprovalState = 'pending' | 'running' | 'done' | 'failed' | 'declined' | 'expired';

export interface ApprovalsTable {
  id: string;
  workspace_id: string;
  operation_id: string;
  /** The parsed input, JSON: what runs once the owner approves. */
  input: string;
  /** What the change does, in words, as shown to the owner. */
  summary: string;
  state: ApprovalState;
  requested_by_key_id: string | null;
  requested_by_user_id: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  decided_by_user_id: string | null;
  finished_at: number | null;
  /** The operation's answer, JSON, once done. */
  result: string | null;
  /** Why it failed. */
  error: string | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a database leak opens no session. */
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface OAuthSigningKeysTable {
  kid: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
}

export interface OAuthClientsTable {
  client_id: string;
  client_name: string;
  /** JSON list of exact redirect URIs. */
  redirect_uris: string;
  created_at: number;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
  grant_id: string | null;
}

export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  resource: string;
  created_at: number;
  revoked_at: number | null;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  scopes: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
}

export interface DeviceAuthorizationsTable {
  device_code_hash: string;
  /** What the person types on the verification page, e.g. BCDF-GHJK. */
  user_code: string;
  client_id: string;
  scopes: string;
  status: 'pending' | 'approved' | 'denied' | 'used';
  interval_seconds: number;
  created_at: number;
  expires_at: number;
  last_polled_at: number | null;
  user_id: string | null;
  workspace_id: string | null;
  granted_scopes: string | null;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  brands: BrandsTable;
  brand_guidelines: BrandGuidelinesTable;
  brand_products: BrandProductsTable;
  brand_icps: BrandIcpsTable;
  team_invites: TeamInvitesTable;
  billing_accounts: BillingAccountsTable;
  billing_addons: BillingAddonsTable;
  billing_payments: BillingPaymentsTable;
  support_messages: SupportMessagesTable;
  approvals: ApprovalsTable;
  sessions: SessionsTable;
  oauth_signing_keys: OAuthSigningKeysTable;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_grants: OAuthGrantsTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  device_authorizations: DeviceAuthorizationsTable;
}
