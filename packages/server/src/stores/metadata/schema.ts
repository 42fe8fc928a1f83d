// Kysely table types of the metadata store. Timestamps are ISO 8601 UTC text with
// milliseconds in both dialects (see docs/adr/0002-metadata-timestamps.md); ids are UUID text.
import type { ColumnType, Generated } from "kysely";

export interface RateLimitCountersTable {
  /** What is limited and for whom, e.g. `magic-link:email:a@b.c`. */
  bucket: string;
  /** Start of the fixed window, ISO text. */
  window_start: string;
  hits: Generated<number>;
  /** When this row may be deleted, ISO text. */
  expires_at: string;
}

export interface UsersTable {
  id: string;
  /** Lower-cased and trimmed; unique among live (not deleted) users. */
  email: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  /** IANA zone; the default bucketing zone of timeseries. */
  timezone: Generated<string>;
  /** argon2id PHC string; null until the user sets a password. */
  password_hash: string | null;
  email_verified_at: string | null;
  /** Set while a picture is stored; part of the picture URL so caches refresh. */
  picture_updated_at: string | null;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  deleted_at: string | null;
}

export interface UserPicturesTable {
  user_id: string;
  content_type: string;
  content_base64: string;
  updated_at: string;
}

export interface MagicLinkTokensTable {
  id: string;
  email: string;
  /** SHA-256 hex of the token; the token itself is only ever in the e-mail. */
  token_hash: string;
  ip_address: Generated<string>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One row per signed-in device: the refresh-token family. Its id is the JWT `sid`. */
export interface SessionsTable {
  id: string;
  user_id: string;
  device_info: Generated<string>;
  ip_address: Generated<string>;
  location: Generated<string>;
  /** How the family was started: magic_link | password. */
  auth_method: string;
  created_at: string;
  last_used_at: string;
  /** Absolute end of the family; rotation never extends it. */
  expires_at: string;
  revoked_at: string | null;
}

export interface RefreshTokensTable {
  id: string;
  session_id: string;
  token_hash: string;
  created_at: string;
  /** Set when exchanged for the next token; presenting a used token is reuse. */
  used_at: string | null;
}

export interface ProjectsTable {
  id: string;
  /** Who created the project. Roles, owners included, live in project_members. */
  owner_id: string;
  name: string;
  /** Unique among live projects; a soft-deleted project releases it. */
  slug: string;
  description: Generated<string>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Days each kind of record is kept (migration 0016); null follows the server's variable. */
  requests_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
  logs_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
  spans_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
  /** Days the analytics rollups are kept (migration 0017); null follows the server's variable. */
  rollups_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AppsTable {
  id: string;
  project_id: string;
  name: string;
  /** Unique among the project's live apps. */
  slug: string;
  description: Generated<string>;
  framework: Generated<string>;
  icon: Generated<string>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  /** Set for app keys, which may only ingest records of that app. */
  app_id: string | null;
  name: string;
  /** The first characters of the key, shown to tell keys apart. */
  prefix: string;
  /** SHA-256 hex of the whole key; the key itself is shown once and never stored. */
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface EnvironmentsTable {
  id: string;
  app_id: string;
  name: string;
  slug: string;
  color: string;
  /** Display order; `order` on the wire (a reserved word in SQL). */
  position: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface EndpointsTable {
  id: string;
  app_id: string;
  method: string;
  /** Route template, e.g. `/users/{id}`. */
  path: string;
  description: Generated<string>;
  /** Set while a user has switched the endpoint off; traffic does not switch it back on. */
  deactivated_at: string | null;
  last_seen_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A person's role in a project; `role` text that is not a known role grants nothing. */
export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: string;
  joined_at: string;
}

export interface ProjectInvitationsTable {
  id: string;
  project_id: string;
  /** Lower-cased and trimmed, like users.email. */
  email: string;
  role: string;
  /** SHA-256 hex of the token; the token itself is only ever in the e-mail. */
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

export interface AuditEventsTable {
  id: string;
  project_id: string;
  /** Null for system changes, and once the actor's row is gone. */
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  /** The target's name when it happened. */
  target_label: string;
  /** JSON object text. */
  details: Generated<string>;
  created_at: string;
}

export interface AlertRulesTable {
  id: string;
  project_id: string;
  name: string;
  /** 1 or 0. */
  enabled: number;
  app_id: string | null;
  environment: string | null;
  endpoint_method: string | null;
  endpoint_route: string | null;
  /** threshold | anomaly (0012). */
  kind: Generated<string>;
  metric: string;
  error_status_from: number | null;
  status_selector: string | null;
  /** Placeholders ('gt', 0) for anomaly rules. */
  comparator: string;
  threshold: number;
  /** Anomaly rules only. */
  sensitivity: string | null;
  direction: string | null;
  window_seconds: number;
  min_requests: number;
  for_evaluations: number;
  muted_until: string | null;
  state: string;
  state_since: string;
  /** Evaluations in a row the condition has held. */
  streak: number;
  last_evaluated_at: string | null;
  last_value: number | null;
  /** JSON band of an anomaly rule's last evaluation. */
  last_band: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationChannelsTable {
  id: string;
  project_id: string;
  name: string;
  type: string;
  /** JSON: {addresses, all_members} for e-mail, {url} for webhook and Slack. */
  target: string;
  secret: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertRuleChannelsTable {
  rule_id: string;
  channel_id: string;
}

export interface AlertEventsTable {
  id: string;
  rule_id: string;
  project_id: string;
  from_state: string;
  to_state: string;
  reason: string;
  value: number | null;
  threshold: number;
  comparator: string;
  /** Anomaly rules: the band at that evaluation. */
  expected: number | null;
  lower: number | null;
  upper: number | null;
  request_count: number;
  window_start: string;
  window_end: string;
  /** 1 or 0. */
  muted: number;
  created_at: string;
}

export interface NotificationDeliveriesTable {
  id: string;
  project_id: string;
  /** The alert event it reports, or null for an SLO event's notification. */
  event_id: string | null;
  /** The SLO event it reports (migration 0011), or null for an alert event's. */
  slo_event_id: string | null;
  channel_id: string | null;
  channel_name: string;
  channel_type: string;
  /** JSON of the notification. */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** An HTTP check Sightline runs on a schedule, with its up/down state (migration 0015). */
export interface UptimeChecksTable {
  id: string;
  project_id: string;
  name: string;
  url: string;
  method: string;
  /** JSON object of header name to value. */
  headers: string;
  interval_seconds: number;
  timeout_ms: number;
  expected_status: number;
  body_contains: string | null;
  failure_threshold: number;
  /** JSON array of notification channel ids. */
  channel_ids: string;
  /** 1 or 0. */
  enabled: number;
  state: string;
  state_since: string | null;
  consecutive_failures: number;
  last_checked_at: string | null;
  last_error: string | null;
  next_check_at: string;
  created_at: string;
  updated_at: string;
}

/** A service level objective with its burn-rate alert state (migration 0011). */
export interface SlosTable {
  id: string;
  project_id: string;
  name: string;
  app_id: string | null;
  environment: string | null;
  /** JSON array of {method, route}. */
  endpoints: string;
  consumer_id: string | null;
  consumer_group: string | null;
  sli: string;
  /** JSON array of status selectors. */
  also_bad: string;
  latency_threshold_ms: number | null;
  target: number;
  window_days: number;
  /** 1 or 0. */
  alerting_enabled: number;
  fast_burn_rate: number;
  fast_long_minutes: number;
  fast_short_minutes: number;
  slow_burn_rate: number;
  slow_long_minutes: number;
  slow_short_minutes: number;
  state: string;
  state_since: string;
  last_evaluated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SavedViewsTable {
  id: string;
  project_id: string;
  user_id: string;
  page: string;
  name: string;
  /** JSON object of text values. */
  filters: string;
  /** 1 when the project's members see it too. */
  shared: number;
  created_at: string;
  updated_at: string;
}

export interface SloChannelsTable {
  slo_id: string;
  channel_id: string;
}

export interface SloEventsTable {
  id: string;
  slo_id: string;
  project_id: string;
  from_state: string;
  to_state: string;
  reason: string;
  long_burn_rate: number | null;
  short_burn_rate: number | null;
  long_window_minutes: number;
  short_window_minutes: number;
  threshold: number;
  window_end: string;
  created_at: string;
}

/** A named, expiring claim one instance holds at a time (the alert evaluator's). */
export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** The newest heartbeat of one running instance of an app (migration 0013). */
export interface AppHeartbeatsTable {
  app_id: string;
  instance_id: string;
  environment: string;
  sdk: string;
  sdk_version: string;
  runtime: string;
  uptime_s: number | null;
  cpu_percent: number | null;
  memory_rss_bytes: number | null;
  memory_heap_used_bytes: number | null;
  interval_s: number | null;
  /** ISO text: when the server took the beat. */
  received_at: string;
}

export interface PersonalAccessTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** The first characters of the token, shown to tell tokens apart. */
  prefix: string;
  /** SHA-256 hex of the whole token; the token itself is shown once and never stored. */
  token_hash: string;
  /** `read` or `read-write`; anything else is read as `read`. */
  scope: string;
  /** JSON array of the project ids the token is limited to; null for every project. */
  project_ids: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** An app's contract in one environment: the statistics it is derived from (JSON). */
export interface ApiContractsTable {
  id: string;
  project_id: string;
  app_id: string;
  environment: string;
  state: string;
  read_until: string;
  latest_version: number;
  updated_at: string;
}

export interface ApiContractVersionsTable {
  id: string;
  project_id: string;
  app_id: string;
  environment: string;
  version: number;
  fingerprint: string;
  /** JSON of the OpenAPI 3.1 document. */
  document: string;
  operations: number;
  changes: number;
  breaking_changes: number;
  created_at: string;
}

export interface ApiContractChangesTable {
  id: string;
  project_id: string;
  version_id: string;
  app_id: string;
  environment: string;
  version: number;
  kind: string;
  /** 1 or 0. */
  breaking: number;
  method: string;
  path: string;
  location: string;
  status: string | null;
  field: string | null;
  detail: string;
  /** JSON array of {consumer_id, consumer_name, requests}. */
  consumers: string;
  consumers_total: number;
  window_days: number;
  created_at: string;
}

export interface ApiDeclaredDocumentsTable {
  app_id: string;
  project_id: string;
  /** JSON of the declared OpenAPI document. */
  document: string;
  openapi: string;
  title: string;
  operations: number;
  size_bytes: number;
  uploaded_at: string;
}

export interface ApiContractCursorTable {
  name: string;
  read_until: string;
}

export interface ApiContractAlertRulesTable {
  id: string;
  project_id: string;
  name: string;
  app_id: string | null;
  environment: string | null;
  /** breaking | all */
  severity: string;
  /** JSON array of notification channel ids. */
  channel_ids: string;
  created_at: string;
}

export interface ApiContractNotificationsTable {
  id: string;
  project_id: string;
  rule_id: string;
  version_id: string;
  channel_id: string | null;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

export interface MetadataTables {
  rate_limit_counters: RateLimitCountersTable;
  users: UsersTable;
  user_pictures: UserPicturesTable;
  magic_link_tokens: MagicLinkTokensTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  projects: ProjectsTable;
  apps: AppsTable;
  api_keys: ApiKeysTable;
  environments: EnvironmentsTable;
  endpoints: EndpointsTable;
  project_members: ProjectMembersTable;
  project_invitations: ProjectInvitationsTable;
  audit_events: AuditEventsTable;
  alert_rules: AlertRulesTable;
  notification_channels: NotificationChannelsTable;
  alert_rule_channels: AlertRuleChannelsTable;
  alert_events: AlertEventsTable;
  notification_deliveries: NotificationDeliveriesTable;
  leases: LeasesTable;
  personal_access_tokens: PersonalAccessTokensTable;
  api_contracts: ApiContractsTable;
  api_contract_versions: ApiContractVersionsTable;
  api_contract_changes: ApiContractChangesTable;
  api_declared_documents: ApiDeclaredDocumentsTable;
  api_contract_cursor: ApiContractCursorTable;
  api_contract_alert_rules: ApiContractAlertRulesTable;
  api_contract_notifications: ApiContractNotificationsTable;
  slos: SlosTable;
  slo_channels: SloChannelsTable;
  slo_events: SloEventsTable;
  saved_views: SavedViewsTable;
  app_heartbeats: AppHeartbeatsTable;
  uptime_checks: UptimeChecksTable;
}
