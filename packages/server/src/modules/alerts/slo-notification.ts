// What an SLO burn-rate notification says, independent of the channel: the objective, the state
// change, the burn rates of the condition's two windows against its rate, and a link to the SLO's
// page. The SLO evaluator (modules/slos) stores it as an outbox row's payload; the senders here
// render it per channel (e-mail, webhook JSON with the same signature, Slack Block Kit).
import type { SloState } from "@sightline/contracts";
import { escapeHtml, type Mail } from "../auth/index.js";

export interface SloNotification {
  /** Tells it apart from an alert rule's notification in the shared outbox. */
  readonly subject: "slo";
  readonly kind: "firing" | "resolved";
  readonly event_id: string;
  readonly occurred_at: string;
  readonly project: { readonly id: string; readonly slug: string; readonly name: string };
  readonly slo: {
    readonly id: string;
    readonly name: string;
    readonly sli: "availability" | "latency";
    readonly target: number;
    readonly window_days: number;
    readonly scope: string;
  };
  readonly from_state: SloState;
  readonly to_state: SloState;
  /** The condition that fired (for a resolution: the one that had fired). */
  readonly condition: {
    readonly severity: "fast" | "slow";
    readonly burn_rate: number;
    readonly long_window_minutes: number;
    readonly short_window_minutes: number;
  };
  readonly burn_rates: { readonly long: number | null; readonly short: number | null };
  readonly window_end: string;
  readonly links: { readonly slo: string };
}

export function isSloNotification(value: object): value is SloNotification {
  return (value as { subject?: unknown }).subject === "slo";
}

/** The documented webhook body (README, "Service levels"): `slo.firing` or `slo.resolved`. */
export function sloWebhookType(notification: SloNotification): string {
  return `slo.${notification.kind}`;
}

export function sloWebhookBody(notification: SloNotification, deliveryId: string): string {
  return JSON.stringify({ type: sloWebhookType(notification), delivery_id: deliveryId, ...notification });
}

const rate = (value: number | null): string =>
  value === null ? "no data" : `${String(Math.round(value * 100) / 100)}x`;

const minutes = (value: number): string => (value % 60 === 0 ? `${value / 60} h` : `${value} min`);

export function sloHeadline(notification: SloNotification): string {
  const label = notification.kind === "firing" ? "FIRING" : "RESOLVED";
  const what = notification.condition.severity === "fast" ? "fast burn" : "slow burn";
  return `[${label}] SLO ${notification.slo.name}: ${what}`;
}

/** `error budget burning 16.2x (1 h) and 20x (5 min), above 14.4x; objective 99.9% over 30 days`. */
export function sloSummary(notification: SloNotification): string {
  const { condition, burn_rates: rates, slo } = notification;
  const verb = notification.kind === "firing" ? "burning" : "now burning";
  return (
    `error budget ${verb} ${rate(rates.long)} (${minutes(condition.long_window_minutes)}) and ` +
    `${rate(rates.short)} (${minutes(condition.short_window_minutes)}), alert above ${rate(condition.burn_rate)}; ` +
    `objective ${slo.target}% ${slo.sli} over ${slo.window_days} days`
  );
}

export function sloMail(to: readonly string[], notification: SloNotification): Mail {
  const subject = sloHeadline(notification);
  const intro =
    notification.kind === "firing"
      ? "A service level objective is burning its error budget too fast."
      : "A service level objective no longer burns its error budget too fast.";
  const facts: Array<[string, string]> = [
    ["SLO", notification.slo.name],
    ["Project", notification.project.name],
    ["Scope", notification.slo.scope],
    [
      "Objective",
      `${notification.slo.target}% ${notification.slo.sli}, ${notification.slo.window_days} days`,
    ],
    ["State", `${notification.from_state} → ${notification.to_state}`],
    ["Burn rate", `${rate(notification.burn_rates.long)} / ${rate(notification.burn_rates.short)}`],
    ["As of", notification.window_end],
  ];
  const text = [
    intro,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    `SLO: ${notification.links.slo}`,
    "",
  ].join("\n");
  const rows = facts
    .map(
      ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<h1 style="font-size: 20px">${escapeHtml(subject)}</h1>
<p>${escapeHtml(intro)} ${escapeHtml(sloSummary(notification))}.</p>
<table cellpadding="4">
${rows}
</table>
<p><a href="${escapeHtml(notification.links.slo)}">Open the SLO</a></p>
</body></html>
`;
  return { to: to.join(", "), subject, text, html, devSummary: `SLO e-mail to ${to.join(", ")}: ${subject}` };
}

/** Slack's mrkdwn treats &, < and > as markup. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function sloSlackMessage(notification: SloNotification): Record<string, unknown> {
  const title = sloHeadline(notification);
  const icon = notification.kind === "firing" ? ":fire:" : ":white_check_mark:";
  return {
    text: `${title}: ${sloSummary(notification)}`,
    blocks: [
      { type: "header", text: { type: "plain_text", text: title.slice(0, 150), emoji: true } },
      { type: "section", text: { type: "mrkdwn", text: `${icon} ${slackEscape(sloSummary(notification))}` } },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*Scope*\n${slackEscape(notification.slo.scope)}` },
          { type: "mrkdwn", text: `*State*\n${notification.from_state} → ${notification.to_state}` },
        ],
      },
      {
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Open the SLO" }, url: notification.links.slo },
        ],
      },
    ],
  };
}
