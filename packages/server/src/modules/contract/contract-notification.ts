// What a contract-change notification says, independent of the channel (stored as the outbox
// row's payload), and its rendering per channel: an e-mail, the signed webhook JSON (the alerts'
// signature and headers, event `contract.change`), a Slack Block Kit message.
import { escapeHtml, type Mail } from "../auth/index.js";

export interface ContractNotification {
  readonly kind: "contract_change";
  readonly occurred_at: string;
  readonly project: { readonly id: string; readonly slug: string; readonly name: string };
  readonly rule: { readonly id: string; readonly name: string; readonly severity: string };
  readonly app: string;
  readonly environment: string;
  readonly version: number;
  readonly breaking_changes: number;
  /** The changes of the version, breaking first (at most NOTIFIED_CHANGES). */
  readonly changes: ReadonlyArray<{
    readonly id: string;
    readonly kind: string;
    readonly breaking: boolean;
    readonly operation: string;
    readonly detail: string;
    readonly consumers_total: number;
    readonly consumers: ReadonlyArray<{ readonly consumer_id: string; readonly requests: number }>;
  }>;
  readonly changes_total: number;
  /** The first listed change's page, and the app's change log. */
  readonly links: { readonly change: string; readonly changes: string };
}

export const NOTIFIED_CHANGES = 20;

export const CONTRACT_WEBHOOK_EVENT = "contract.change";

export function headline(notification: ContractNotification): string {
  const what =
    notification.breaking_changes > 0
      ? `${notification.breaking_changes} breaking API change${notification.breaking_changes === 1 ? "" : "s"}`
      : `${notification.changes_total} API change${notification.changes_total === 1 ? "" : "s"}`;
  return `[API CONTRACT] ${what} in ${notification.app} (${notification.environment})`;
}

function lineOf(change: ContractNotification["changes"][number]): string {
  const who =
    change.consumers_total === 0
      ? "no consumer affected"
      : `${change.consumers_total} consumer${change.consumers_total === 1 ? "" : "s"} affected` +
        ` (${change.consumers
          .slice(0, 3)
          .map((consumer) => `${consumer.consumer_id || "anonymous"}: ${consumer.requests}`)
          .join(", ")})`;
  return `${change.breaking ? "BREAKING" : "non-breaking"} ${change.operation}: ${change.detail}; ${who}`;
}

export function webhookBody(notification: ContractNotification, deliveryId: string): string {
  return JSON.stringify({ type: CONTRACT_WEBHOOK_EVENT, delivery_id: deliveryId, ...notification });
}

export function contractMail(to: readonly string[], notification: ContractNotification): Mail {
  const subject = headline(notification);
  const lines = notification.changes.map(lineOf);
  const text = [
    `Version ${notification.version} of the inferred contract of ${notification.app} (${notification.environment}) ` +
      `in project ${notification.project.name} changed:`,
    "",
    ...lines.map((line) => `- ${line}`),
    "",
    `Change: ${notification.links.change}`,
    `All changes: ${notification.links.changes}`,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<h1 style="font-size: 20px">${escapeHtml(subject)}</h1>
<ul>
${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("\n")}
</ul>
<p><a href="${escapeHtml(notification.links.change)}">Open the change</a> · <a href="${escapeHtml(notification.links.changes)}">All changes</a></p>
</body></html>
`;
  return {
    to: to.join(", "),
    subject,
    text,
    html,
    devSummary: `contract e-mail to ${to.join(", ")}: ${subject}`,
  };
}

function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function slackMessage(notification: ContractNotification): Record<string, unknown> {
  const title = headline(notification);
  return {
    text: title,
    blocks: [
      { type: "header", text: { type: "plain_text", text: title.slice(0, 150), emoji: true } },
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: notification.changes
            .slice(0, 10)
            .map((change) => `• ${slackEscape(lineOf(change))}`)
            .join("\n"),
        },
      },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: "Open in Sightline" },
            url: notification.links.change,
          },
        ],
      },
    ],
  };
}
