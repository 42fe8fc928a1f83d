// "Copy as cURL" for a stored request, and pretty-printing of captured payloads (as text only).
import type { RequestDetail } from "@sightline/contracts";

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command; the host comes from its Host header when it was captured. */
export function curlFor(record: RequestDetail): string {
  const host = record.request_headers.host ?? "localhost";
  // The scheme the SDK saw beats a proxy's header; only a record without either guesses.
  const scheme = record.scheme || (record.request_headers["x-forwarded-proto"] ?? "https");
  // The base URL the client reached, when the SDK sent it, beats one rebuilt from headers.
  const origin = record.base_url !== "" ? record.base_url.replace(/\/+$/, "") : `${scheme}://${host}`;
  const query = record.query !== "" ? `?${record.query}` : "";
  const lines = [`curl -X ${record.method} ${quote(`${origin}${record.path}${query}`)}`];
  for (const [name, value] of Object.entries(record.request_headers)) {
    if (name === "host" || name === "content-length") continue;
    // Credentials were redacted at ingest; leave a placeholder to fill in.
    lines.push(`-H ${quote(`${name}: ${value === "[REDACTED]" ? "<redacted>" : value}`)}`);
  }
  if (record.request_payload !== "") lines.push(`--data-raw ${quote(record.request_payload)}`);
  return lines.join(" \\\n  ");
}

/** JSON re-indented with two spaces; anything else unchanged. */
export function prettyPayload(payload: string): string {
  const trimmed = payload.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return payload;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return payload;
  }
}
