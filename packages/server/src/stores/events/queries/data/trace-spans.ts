// A span as the trace query reads it from api_spans (what the trace tree is built from).

export interface StoredTraceSpan {
  readonly span_id: string;
  readonly parent_span_id: string;
  readonly timestamp: string;
  readonly duration_ms: number;
  readonly name: string;
  readonly kind: string;
  readonly service_name: string;
  readonly app_id: string;
  readonly environment: string;
  readonly status: string;
  readonly status_code: number;
  readonly attributes: unknown;
}
