// Contract-change alerting: rules saying which new versions (project, app or environment; breaking
// only or all) notify which of the project's notification channels, the outbox rows a pass's new
// versions make, and their delivery through the alerts' channels (e-mail, signed webhook, Slack).
// Sent by the instance running inference, right after the pass: notified within the pass interval.
import {
  CONTRACT_ALERT_LIMITS,
  type ContractAlertRule,
  type ContractAlertSeverity,
  type CreateContractAlertRuleBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import {
  type ApiContractAlertRuleRow,
  type ApiContractNotificationRow,
  createApiContractAlertsRepo,
} from "../../stores/metadata/repos/api-contract-alerts.repo.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { assertCan, type ProjectScope } from "../access/index.js";
import {
  channelTargetOf,
  DEFAULT_RETRY_DELAYS_MS,
  DeliveryError,
  describeFailure,
  postJson,
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
} from "../alerts/index.js";
import type { AppsService } from "../apps/index.js";
import type { MailTransport } from "../auth/index.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import type { ContractPassSummary, NewVersion } from "./contract.job.js";
import {
  CONTRACT_WEBHOOK_EVENT,
  contractMail,
  type ContractNotification,
  NOTIFIED_CHANGES,
  slackMessage,
  webhookBody,
} from "./contract-notification.js";

/** Notifications sent per run; the rest wait for the next tick. */
const SENDS_PER_RUN = 100;

export interface ContractAlertsDeps {
  readonly db: Kysely<MetadataTables>;
  readonly apps: AppsService;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly mail: MailTransport;
  readonly publicUrl: string;
  readonly allowPrivateTargets: boolean;
  readonly sendTimeoutMs: number;
  readonly retryDelaysMs?: readonly number[];
}

export function createContractAlerts(deps: ContractAlertsDeps) {
  const { db, apps, clock, logger, mail } = deps;
  const repo = createApiContractAlertsRepo(db);
  const channels = createNotificationChannelsRepo(db);
  const retryDelaysMs = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;

  async function ruleOf(
    row: ApiContractAlertRuleRow,
    slugs: Map<string, string>,
  ): Promise<ContractAlertRule> {
    return {
      id: row.id,
      name: row.name,
      app: row.app_id === null ? null : (slugs.get(row.app_id) ?? null),
      environment: row.environment,
      severity: row.severity as ContractAlertSeverity,
      channel_ids: JSON.parse(row.channel_ids) as string[],
      created_at: row.created_at,
    };
  }

  async function slugsOf(projectId: string): Promise<Map<string, string>> {
    return new Map((await apps.listLiveRefs(projectId)).map((ref) => [ref.id, ref.slug]));
  }

  function notificationOf(version: NewVersion, rule: ApiContractAlertRuleRow): ContractNotification {
    const ordered = [...version.changes].sort((a, b) => Number(b.breaking) - Number(a.breaking));
    const project = `${deps.publicUrl}/projects/${encodeURIComponent(version.app.project_slug)}`;
    const first = ordered[0];
    return {
      kind: "contract_change",
      occurred_at: toIsoTimestamp(clock.now()),
      project: { id: version.app.project_id, slug: version.app.project_slug, name: version.app.project_name },
      rule: { id: rule.id, name: rule.name, severity: rule.severity },
      app: version.app.slug,
      environment: version.environment,
      version: version.version,
      breaking_changes: version.changes.filter((change) => change.breaking).length,
      changes: ordered.slice(0, NOTIFIED_CHANGES).map((change) => ({
        id: change.id,
        kind: change.kind,
        breaking: change.breaking,
        operation: `${change.method} ${change.path}`,
        detail: change.detail,
        consumers_total: change.consumersTotal,
        consumers: change.consumers.slice(0, 5),
      })),
      changes_total: version.changes.length,
      links: {
        change: `${project}/api/changes/${encodeURIComponent(first?.id ?? "")}`,
        changes: `${project}/api/changes?${new URLSearchParams({ app: version.app.slug, environment: version.environment }).toString()}`,
      },
    };
  }

  async function send(row: ApiContractNotificationRow): Promise<void> {
    const attempts = row.attempts + 1;
    const channel = row.channel_id === null ? undefined : await channels.findById(row.channel_id);
    if (channel === undefined) {
      await repo.settle(row.id, attempts, { cancelled: "the channel was deleted" });
      return;
    }
    try {
      const target = await channelTargetOf(channel, (projectId) => channels.memberEmails(projectId));
      const notification = JSON.parse(row.payload) as ContractNotification;
      const post = { allowPrivateTargets: deps.allowPrivateTargets, timeoutMs: deps.sendTimeoutMs };
      switch (target.type) {
        case "email":
          if (target.addresses.length === 0) throw new DeliveryError("the channel has no recipients");
          await mail.deliver(contractMail(target.addresses, notification));
          break;
        case "webhook": {
          if (target.url === null || target.secret === null)
            throw new DeliveryError("the channel has no target");
          const body = webhookBody(notification, row.id);
          const timestamp = Math.floor(clock.now().getTime() / 1000);
          await postJson(
            target.url,
            body,
            {
              [TIMESTAMP_HEADER]: String(timestamp),
              [SIGNATURE_HEADER]: signWebhook(target.secret, timestamp, body),
              "X-Sightline-Event": CONTRACT_WEBHOOK_EVENT,
              "X-Sightline-Delivery": row.id,
            },
            post,
          );
          break;
        }
        case "slack":
          if (target.url === null) throw new DeliveryError("the channel has no target");
          await postJson(target.url, JSON.stringify(slackMessage(notification)), {}, post);
          break;
      }
      await repo.settle(row.id, attempts, { delivered: toIsoTimestamp(clock.now()) });
    } catch (error) {
      const reason = describeFailure(error);
      const delay = retryDelaysMs[attempts - 1];
      const next = delay === undefined ? null : toIsoTimestamp(new Date(clock.now().getTime() + delay));
      await repo.settle(row.id, attempts, { error: reason, next });
      logger.warn(
        { notification: row.id, channel: row.channel_id, attempt: attempts, reason },
        "contract notification failed",
      );
    }
  }

  return {
    async createRule(scope: ProjectScope, body: CreateContractAlertRuleBody): Promise<ContractAlertRule> {
      assertCan(scope, "contract:write", "create contract alert rules");
      const { project } = scope;
      if ((await repo.countRules(project.id)) >= CONTRACT_ALERT_LIMITS.rulesPerProject) {
        throw new AppError(
          "limit_reached",
          `A project has at most ${CONTRACT_ALERT_LIMITS.rulesPerProject} contract alert rules.`,
        );
      }
      const slugs = await slugsOf(project.id);
      let appId: string | null = null;
      if (body.app !== undefined) {
        appId = [...slugs.entries()].find(([, slug]) => slug === body.app)?.[0] ?? null;
        if (appId === null) {
          throw new AppError("validation_error", `No app "${body.app}" in project "${project.slug}".`, {
            errors: [{ pointer: "/app", message: "must be an app of the project" }],
          });
        }
      }
      const channelIds = [...new Set(body.channel_ids)];
      const errors = [];
      for (const [index, id] of channelIds.entries()) {
        const channel = await channels.findById(id);
        if (channel === undefined || channel.project_id !== project.id) {
          errors.push({
            pointer: `/channel_ids/${index}`,
            message: "must be a notification channel of the project",
          });
        }
      }
      if (errors.length > 0)
        throw new AppError("validation_error", "Unknown notification channels.", { errors });
      const environment = body.environment === undefined ? null : normaliseEnvironmentName(body.environment);
      const row: ApiContractAlertRuleRow = {
        id: newId(),
        project_id: project.id,
        name: body.name.trim(),
        app_id: appId,
        environment: environment === "" ? null : environment,
        severity: body.severity ?? "breaking",
        channel_ids: JSON.stringify(channelIds),
        created_at: toIsoTimestamp(clock.now()),
      };
      await repo.insertRule(row);
      return ruleOf(row, slugs);
    },

    async listRules(scope: ProjectScope): Promise<ContractAlertRule[]> {
      const slugs = await slugsOf(scope.project.id);
      return Promise.all((await repo.listRules(scope.project.id)).map((row) => ruleOf(row, slugs)));
    },

    async deleteRule(scope: ProjectScope, id: string): Promise<void> {
      assertCan(scope, "contract:write", "delete contract alert rules");
      if (!(await repo.deleteRule(scope.project.id, id))) {
        throw new AppError("not_found", "No such contract alert rule in this project.");
      }
    },

    /** Queues a notification per matching rule and channel for each new version with changes. */
    async notifyPass(summary: ContractPassSummary): Promise<number> {
      const rows = [];
      const now = toIsoTimestamp(clock.now());
      for (const version of summary.versions) {
        if (version.changes.length === 0) continue;
        const breaking = version.changes.some((change) => change.breaking);
        for (const rule of await repo.listRules(version.app.project_id)) {
          if (rule.app_id !== null && rule.app_id !== version.app.id) continue;
          if (rule.environment !== null && rule.environment !== version.environment) continue;
          if (rule.severity === "breaking" && !breaking) continue;
          const payload = JSON.stringify(notificationOf(version, rule));
          for (const channelId of JSON.parse(rule.channel_ids) as string[]) {
            rows.push({
              id: newId(),
              project_id: version.app.project_id,
              rule_id: rule.id,
              version_id: version.versionId,
              channel_id: channelId,
              payload,
              status: "pending",
              attempts: 0,
              next_attempt_at: now,
              last_error: null,
              delivered_at: null,
              created_at: now,
            });
          }
        }
      }
      await repo.enqueue(rows);
      return rows.length;
    },

    /** Sends what is due, one at a time; returns how many were attempted. */
    async deliverDue(): Promise<number> {
      const due = await repo.listDue(toIsoTimestamp(clock.now()), SENDS_PER_RUN);
      for (const row of due) await send(row);
      return due.length;
    },
  };
}

export type ContractAlerts = ReturnType<typeof createContractAlerts>;
