// The check form's state and its conversions: from a saved check (to edit it) and to the body the
// API takes. Inputs stay strings while typed; the server validates what it receives and names
// each refused field, which the form shows under that field.
import type { CreateUptimeCheckBody, UptimeCheck, UptimeMethod } from "@sightline/contracts";

export interface CheckDraft {
  readonly name: string;
  readonly url: string;
  readonly method: UptimeMethod;
  /** One `Name: value` a line. */
  readonly headers: string;
  readonly interval_seconds: string;
  readonly timeout_ms: string;
  readonly expected_status: string;
  readonly body_contains: string;
  readonly failure_threshold: string;
  readonly channel_ids: readonly string[];
  readonly enabled: boolean;
}

/** The API's defaults (contracts `CreateUptimeCheckBodySchema`). */
export const NEW_CHECK: CheckDraft = {
  name: "",
  url: "https://",
  method: "GET",
  headers: "",
  interval_seconds: "60",
  timeout_ms: "10000",
  expected_status: "200",
  body_contains: "",
  failure_threshold: "3",
  channel_ids: [],
  enabled: true,
};

export function draftFromCheck(check: UptimeCheck): CheckDraft {
  return {
    name: check.name,
    url: check.url,
    method: check.method,
    headers: Object.entries(check.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n"),
    interval_seconds: String(check.interval_seconds),
    timeout_ms: String(check.timeout_ms),
    expected_status: String(check.expected_status),
    body_contains: check.body_contains ?? "",
    failure_threshold: String(check.failure_threshold),
    channel_ids: check.channel_ids,
    enabled: check.enabled,
  };
}

/**
 * `Name: value` lines as a header object; blank lines are skipped. A line without a colon is a
 * name with an empty value, so the server's check of header names reports it under `headers`.
 */
export function headersOf(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    const name = (colon === -1 ? line : line.slice(0, colon)).trim();
    headers[name] = colon === -1 ? "" : line.slice(colon + 1).trim();
  }
  return headers;
}

/** A typed integer, or NaN (sent as null, which the server refuses with a message for the field). */
function integerOf(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

/** The body of a create, and of an edit (PATCH sends every field the form shows). */
export function bodyFromDraft(draft: CheckDraft): CreateUptimeCheckBody {
  return {
    name: draft.name.trim(),
    url: draft.url.trim(),
    method: draft.method,
    headers: headersOf(draft.headers),
    interval_seconds: integerOf(draft.interval_seconds),
    timeout_ms: integerOf(draft.timeout_ms),
    expected_status: integerOf(draft.expected_status),
    body_contains: draft.body_contains === "" ? null : draft.body_contains,
    failure_threshold: integerOf(draft.failure_threshold),
    channel_ids: [...draft.channel_ids],
    enabled: draft.enabled,
  };
}
