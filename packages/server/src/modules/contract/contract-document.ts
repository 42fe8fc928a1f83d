// The inferred OpenAPI 3.1 document of one app in one environment, derived from its operations'
// statistics, and the fingerprint that decides whether a pass made a new version: the document's
// shape (examples and presence figures left out), so only a change of contract makes a version.
import { createHash } from "node:crypto";
import type { OperationStats } from "./operation-stats.js";
import { deriveSchema, type JsonSchema, REQUIRED_SHARE, type ValueStats } from "./schema-stats.js";
import { TEXT_KINDS, type TextKind, textKindSchema } from "./value-kinds.js";

/** A status code enters the contract once answered this many times (one stray error does not). */
export const MIN_STATUS_COUNT = 3;
/** An operation with fewer sampled calls is still being learnt (`x-sightline-learning`): what
 *  changes in it is reported, never as breaking — its first calls cannot tell optional from
 *  required, nor a rare status from a new one. */
export const LEARNING_CALLS = 100;
export const LEARNING_EXTENSION = "x-sightline-learning";

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
};

export type OpenApiOperation = Record<string, unknown> & {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: JsonSchema }> }>;
};

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface DocumentTitle {
  readonly app: string;
  readonly environment: string;
}

/** The document of `operations` (sorted by path, then method). */
export function buildDocument(
  operations: readonly OperationStats[],
  title: DocumentTitle,
  options: { examples: boolean } = { examples: true },
): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const sorted = [...operations].sort((a, b) =>
    a.route < b.route ? -1 : a.route > b.route ? 1 : a.method < b.method ? -1 : 1,
  );
  const ids = new Set<string>();
  for (const op of sorted) {
    const method = op.method.toLowerCase();
    if (!(HTTP_METHODS as readonly string[]).includes(method)) continue;
    const item = (paths[op.route] ??= {});
    item[method] = buildOperation(op, uniqueId(operationIdOf(method, op.route), ids), options);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `${title.app} (${title.environment})`,
      version: "inferred",
      description: "Inferred by Sightline from observed traffic.",
    },
    paths,
  };
}

function buildOperation(
  op: OperationStats,
  operationId: string,
  options: { examples: boolean },
): OpenApiOperation {
  const parameters: OpenApiParameter[] = [];
  for (const match of op.route.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1] as string;
    const kinds = op.pathParams[name] ?? {};
    parameters.push({ name, in: "path", required: true, schema: textKindSchema(kindsSeen(kinds)) });
  }
  for (const name of Object.keys(op.query).sort()) {
    const param = op.query[name];
    if (param === undefined) continue;
    parameters.push({
      name,
      in: "query",
      required: op.sampled > 0 && param.present / op.sampled >= REQUIRED_SHARE,
      schema: textKindSchema(kindsSeen(param.kinds)),
    });
  }
  const operation: OpenApiOperation = {
    operationId,
    tags: [tagOf(op.route)],
    responses: {},
  };
  if (op.sampled < LEARNING_CALLS) operation[LEARNING_EXTENSION] = true;
  if (parameters.length > 0) operation.parameters = parameters;
  if (op.withBody > 0) {
    const required = op.sampled > 0 && op.withBody / op.sampled >= REQUIRED_SHARE;
    operation.requestBody = {
      ...(required ? { required: true } : {}),
      content: contentOf(op.requestTypes, op.requestBody, options),
    };
  }
  for (const status of Object.keys(op.responses).sort()) {
    const response = op.responses[status];
    if (response === undefined || response.count < MIN_STATUS_COUNT) continue;
    const content = contentOf(response.contentTypes, response.body, options);
    operation.responses[status] = {
      description: `Observed ${status} response.`,
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  if (Object.keys(operation.responses).length === 0) {
    operation.responses.default = { description: "No status code observed often enough yet." };
  }
  return operation;
}

/** Media types seen, the JSON one carrying the body schema (application/json when unnamed). */
function contentOf(
  types: Record<string, number>,
  body: ValueStats,
  options: { examples: boolean },
): Record<string, { schema?: JsonSchema }> {
  const content: Record<string, { schema?: JsonSchema }> = {};
  const names = Object.keys(types).sort();
  const json = names.find((name) => name === "application/json" || name.endsWith("+json"));
  for (const name of names) content[name] = {};
  if (body.n > 0) content[json ?? "application/json"] = { schema: deriveSchema(body, options) };
  return content;
}

function kindsSeen(kinds: Partial<Record<TextKind, number>>): TextKind[] {
  return TEXT_KINDS.filter((kind) => (kinds[kind] ?? 0) > 0);
}

/** `get /orders/{id}/items` -> `getOrdersByIdItems`. */
function operationIdOf(method: string, route: string): string {
  const words = route
    .split("/")
    .filter((part) => part !== "")
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part);
      const word = (param ? `by_${param[1]}` : part).replace(/[^A-Za-z0-9]+/g, "_");
      return word
        .split("_")
        .filter((piece) => piece !== "")
        .map((piece) => piece[0]?.toUpperCase() + piece.slice(1))
        .join("");
    });
  return `${method}${words.join("") || "Root"}`;
}

function uniqueId(id: string, ids: Set<string>): string {
  let candidate = id;
  for (let n = 2; ids.has(candidate); n++) candidate = `${id}${n}`;
  ids.add(candidate);
  return candidate;
}

/** The first segment that is neither a parameter nor an API prefix (`api`, `v1`). */
export function tagOf(route: string): string {
  const segment = route
    .split("/")
    .find((part) => part !== "" && !part.startsWith("{") && !/^(api|v\d+)$/i.test(part));
  return segment ?? "root";
}

/** Canonical JSON: keys sorted at every level, so equal documents serialise alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The fingerprint of a document's contract: its shape without examples or title. */
export function contractFingerprint(operations: readonly OperationStats[]): string {
  const shape = buildDocument(operations, { app: "", environment: "" }, { examples: false });
  return createHash("sha256").update(canonicalJson(shape)).digest("hex");
}
