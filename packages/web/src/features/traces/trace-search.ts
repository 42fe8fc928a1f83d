// The URL state of the trace page: the span whose attributes are shown and the request open in
// the drawer. Anything malformed in a shared link is dropped.
import { optionalString } from "../../lib/search";

export interface TraceSearch {
  /** The selected span's id. */
  span?: string;
  /** The request record open in the drawer. */
  req?: string;
}

const SPAN_ID = /^[0-9a-fA-F]{16}$/;

export function validateTraceSearch(search: Record<string, unknown>): TraceSearch {
  const span = optionalString(search.span, 16);
  return {
    span: span !== undefined && SPAN_ID.test(span) ? span.toLowerCase() : undefined,
    req: optionalString(search.req, 64),
  };
}
