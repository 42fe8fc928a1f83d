// Sending one notification to one channel: e-mail through the mail transport, a signed JSON
// POST for webhooks, a Block Kit message for Slack. Each throws DeliveryError (or the
// transport's error) on failure; callers decide about retries.
import { createHmac } from "node:crypto";
import type { ChannelType } from "@sightline/contracts";
import { escapeHtml, type Mail, type MailTransport } from "../auth/index.js";
import {
  isSloNotification,
  type SloNotification,
  sloMail,
  sloSlackMessage,
  sloWebhookBody,
  sloWebhookType,
} from "./slo-notification.js";
import { DeliveryError, postJson } from "./http-post.js";
import {
  isUptimeNotification,
  type UptimeNotification,
  uptimeMail,
  uptimeSlackMessage,
  uptimeWebhookBody,
  uptimeWebhookType,
} from "./uptime-notification.js";
import {
  conditionLabel,
  formatCondition,
  formatScope,
  formatValue,
  formatWindow,
  headline,
  metricLabel,
  type Notification,
  summaryLine,
} from "./notification.js";

/** A channel as the senders need it: its target read from the store at send time. */
export interface ChannelTarget {
  readonly type: ChannelType;
  readonly name: string;
  readonly addresses: readonly string[];
  readonly url: string | null;
  readonly secret: string | null;
}

export interface SenderDeps {
  readonly mail: MailTransport;
  readonly allowPrivateTargets: boolean;
  readonly timeoutMs: number;
  /** Unix seconds for the signature's timestamp. */
  readonly nowSeconds: () => number;
}

export const SIGNATURE_HEADER = "X-Sightline-Signature";
export const TIMESTAMP_HEADER = "X-Sightline-Timestamp";

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the channel's secret>`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The documented webhook body (README, "Webhook payload"). */
export function webhookBody(notification: Notification, deliveryId: string): string {
  return JSON.stringify({ type: `alert.${notification.kind}`, delivery_id: deliveryId, ...notification });
}

/** What the outbox holds: an alert rule's notification, an SLO's (modules/slos) or an uptime
 *  check's (modules/uptime). */
export type OutboxNotification = Notification | SloNotification | UptimeNotification;

/** The e-mail, webhook body and type, and Slack message of any outbox notification. */
function rendered(notification: OutboxNotification) {
  if (isSloNotification(notification)) {
    return {
      mail: (to: readonly string[]) => sloMail(to, notification),
      webhook: (id: string) => sloWebhookBody(notification, id),
      type: sloWebhookType(notification),
      slack: () => sloSlackMessage(notification),
    };
  }
  if (isUptimeNotification(notification)) {
    return {
      mail: (to: readonly string[]) => uptimeMail(to, notification),
      webhook: (id: string) => uptimeWebhookBody(notification, id),
      type: uptimeWebhookType(notification),
      slack: () => uptimeSlackMessage(notification),
    };
  }
  return {
    mail: (to: readonly string[]) => alertMail(to, notification),
    webhook: (id: string) => webhookBody(notification, id),
    type: `alert.${notification.kind}`,
    slack: () => slackMessage(notification),
  };
}

export async function sendNotification(
  channel: ChannelTarget,
  notification: OutboxNotification,
  deliveryId: string,
  deps: SenderDeps,
): Promise<void> {
  switch (channel.type) {
    case "email": {
      if (channel.addresses.length === 0) throw new DeliveryError("the channel has no recipients");
      await deps.mail.deliver(rendered(notification).mail(channel.addresses));
      return;
    }
    case "webhook": {
      if (channel.url === null || channel.secret === null)
        throw new DeliveryError("the channel has no target");
      const render = rendered(notification);
      const body = render.webhook(deliveryId);
      const timestamp = deps.nowSeconds();
      await postJson(
        channel.url,
        body,
        {
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signWebhook(channel.secret, timestamp, body),
          "X-Sightline-Event": render.type,
          "X-Sightline-Delivery": deliveryId,
        },
        deps,
      );
      return;
    }
    case "slack": {
      if (channel.url === null) throw new DeliveryError("the channel has no target");
      const message = rendered(notification).slack();
      await postJson(channel.url, JSON.stringify(message), {}, deps);
      return;
    }
  }
}

export function alertMail(to: readonly string[], notification: Notification): Mail {
  const { rule } = notification;
  const subject = `${headline(notification)}: ${metricLabel(rule)} ${formatValue(rule.metric, notification.value)}`;
  const intro =
    notification.kind === "test"
      ? "This is a test notification: nothing is wrong."
      : notification.kind === "firing"
        ? "An alert rule is firing."
        : "An alert rule has resolved.";
  const facts: Array<[string, string]> = [
    ["Rule", rule.name],
    ["Project", notification.project.name],
    ["Scope", formatScope(notification)],
    ["Value", formatValue(rule.metric, notification.value)],
    [conditionLabel(notification), formatCondition(notification)],
    [
      "Window",
      `${formatWindow(rule.window_seconds)} (${notification.window.start} – ${notification.window.end})`,
    ],
    rule.kind === "silence"
      ? ["Last heartbeat", notification.silence?.last_heartbeat_at ?? "none"]
      : ["Requests", String(notification.request_count)],
  ];
  const text = [
    intro,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    `Dashboard: ${notification.links.dashboard}`,
    `Rule: ${notification.links.rule}`,
    "",
  ].join("\n");
  const rows = facts
    .map(
      ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<h1 style="font-size: 20px">${escapeHtml(headline(notification))}</h1>
<p>${escapeHtml(intro)} ${escapeHtml(summaryLine(notification))}.</p>
<table cellpadding="4">
${rows}
</table>
<p><a href="${escapeHtml(notification.links.dashboard)}">Open the dashboard</a> · <a href="${escapeHtml(notification.links.rule)}">Open the rule</a></p>
</body></html>
`;
  return {
    to: to.join(", "),
    subject,
    text,
    html,
    devSummary: `alert e-mail to ${to.join(", ")}: ${subject}`,
  };
}

/** Slack's mrkdwn treats &, < and > as markup. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A Block Kit message (with `text` as the notification fallback). */
export function slackMessage(notification: Notification): Record<string, unknown> {
  const { rule } = notification;
  const icon = { firing: ":rotating_light:", resolved: ":white_check_mark:", test: ":test_tube:" }[
    notification.kind
  ];
  const title = `${headline(notification)}`;
  return {
    text: `${title}: ${summaryLine(notification)}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: title.slice(0, 150), emoji: true } },
      {
        type: "section",
        text: { type: "mrkdwn", text: `${icon} ${slackEscape(summaryLine(notification))}` },
      },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*Value*\n${slackEscape(formatValue(rule.metric, notification.value))}` },
          {
            type: "mrkdwn",
            text: `*${conditionLabel(notification)}*\n${slackEscape(formatCondition(notification))}`,
          },
          { type: "mrkdwn", text: `*Window*\n${formatWindow(rule.window_seconds)}` },
          { type: "mrkdwn", text: `*Scope*\n${slackEscape(formatScope(notification))}` },
        ],
      },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: "Open in Sightline" },
            url: notification.links.dashboard,
          },
          { type: "button", text: { type: "plain_text", text: "View rule" }, url: notification.links.rule },
        ],
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: slackEscape(
              `${notification.project.name} · ${notification.window.start} – ${notification.window.end}`,
            ),
          },
        ],
      },
    ],
  };
}
