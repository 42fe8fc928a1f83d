// What an uptime notification says, independent of the channel: the check, whether it went down
// (after its threshold of consecutive failures) or recovered, the last result, and a link to the
// check's page. The uptime runner (modules/uptime) stores it as an outbox row's payload; the
// senders render it per channel (e-mail, webhook JSON with the same signature, Slack Block Kit).
import { escapeHtml, type Mail } from "../auth/index.js";

export interface UptimeNotification {
  /** Tells it apart from an alert rule's or an SLO's notification in the shared outbox. */
  readonly subject: "uptime";
  readonly kind: "firing" | "resolved";
  readonly occurred_at: string;
  readonly project: { readonly id: string; readonly slug: string; readonly name: string };
  readonly check: {
    readonly id: string;
    readonly name: string;
    readonly url: string;
    readonly method: string;
    readonly failure_threshold: number;
  };
  readonly consecutive_failures: number;
  /** The run that changed the state. */
  readonly result: {
    readonly status_code: number | null;
    readonly latency_ms: number;
    readonly error: string | null;
  };
  readonly links: { readonly check: string };
}

export function isUptimeNotification(value: object): value is UptimeNotification {
  return (value as { subject?: unknown }).subject === "uptime";
}

/** The documented webhook body (README, "Uptime checks and heartbeats"): `uptime.firing` or `uptime.resolved`. */
export function uptimeWebhookType(notification: UptimeNotification): string {
  return `uptime.${notification.kind}`;
}

export function uptimeWebhookBody(notification: UptimeNotification, deliveryId: string): string {
  return JSON.stringify({ type: uptimeWebhookType(notification), delivery_id: deliveryId, ...notification });
}

export function uptimeHeadline(notification: UptimeNotification): string {
  return notification.kind === "firing"
    ? `[DOWN] ${notification.check.name}`
    : `[UP] ${notification.check.name} recovered`;
}

/** `GET https://… failed 3 times in a row: answered HTTP 503, expected 200`. */
export function uptimeSummary(notification: UptimeNotification): string {
  const target = `${notification.check.method} ${notification.check.url}`;
  if (notification.kind === "resolved") {
    return `${target} answers again (HTTP ${String(notification.result.status_code)} in ${notification.result.latency_ms} ms)`;
  }
  return `${target} failed ${notification.consecutive_failures} times in a row: ${notification.result.error ?? "failed"}`;
}

export function uptimeMail(to: readonly string[], notification: UptimeNotification): Mail {
  const subject = uptimeHeadline(notification);
  const summary = uptimeSummary(notification);
  const text = [
    summary,
    "",
    `Project: ${notification.project.name}`,
    `Check: ${notification.links.check}`,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<h1 style="font-size: 20px">${escapeHtml(subject)}</h1>
<p>${escapeHtml(summary)}.</p>
<p>Project: ${escapeHtml(notification.project.name)}</p>
<p><a href="${escapeHtml(notification.links.check)}">Open the check</a></p>
</body></html>
`;
  return {
    to: to.join(", "),
    subject,
    text,
    html,
    devSummary: `uptime e-mail to ${to.join(", ")}: ${subject}`,
  };
}

/** Slack's mrkdwn treats &, < and > as markup. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function uptimeSlackMessage(notification: UptimeNotification): Record<string, unknown> {
  const title = uptimeHeadline(notification);
  const icon = notification.kind === "firing" ? ":red_circle:" : ":white_check_mark:";
  return {
    text: `${title}: ${uptimeSummary(notification)}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: title.slice(0, 150), emoji: true } },
      {
        type: "section",
        text: { type: "mrkdwn", text: `${icon} ${slackEscape(uptimeSummary(notification))}` },
      },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: "Open the check" },
            url: notification.links.check,
          },
        ],
      },
    ],
  };
}
