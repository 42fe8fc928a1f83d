// Reading a declared OpenAPI document a team uploads: JSON or YAML text within a size limit,
// parsed and checked against the OpenAPI 3.0/3.1 schema by @seriousme/openapi-schema-validator;
// a bad document fails with validation_error naming its first problem (pointer and message).
import { Validator } from "@seriousme/openapi-schema-validator";
import { CONTRACT_LIMITS } from "@sightline/contracts";
import { parse as parseYaml } from "yaml";
import { AppError } from "../../errors.js";
import { HTTP_METHODS, type OpenApiDocument } from "./contract-document.js";

export interface DeclaredDocumentInput {
  readonly document: OpenApiDocument;
  readonly openapi: string;
  readonly title: string;
  readonly operations: number;
  readonly sizeBytes: number;
}

let validator: Validator | undefined;

/** One validator for the process: it compiles the OpenAPI schemas once (about 0.2 s each time
 *  otherwise); validate() keeps nothing of one document that another call reads. */
function openApiValidator(): Validator {
  validator ??= new Validator({ allErrors: false });
  return validator;
}

function invalid(pointer: string, message: string): AppError {
  return new AppError(
    "validation_error",
    `The document is not valid OpenAPI 3.0 or 3.1: ${pointer} ${message}.`,
    {
      errors: [{ pointer, message }],
    },
  );
}

/** The parsed, checked document of `text` (JSON or YAML, told apart by its first character). */
export async function readDeclaredDocument(text: string): Promise<DeclaredDocumentInput> {
  const sizeBytes = Buffer.byteLength(text, "utf8");
  if (sizeBytes > CONTRACT_LIMITS.declaredDocumentBytes) {
    throw new AppError(
      "payload_too_large",
      `The document must be at most ${CONTRACT_LIMITS.declaredDocumentBytes} bytes (got ${sizeBytes}).`,
    );
  }
  let parsed: unknown;
  const json = text.trimStart().startsWith("{");
  try {
    // Aliases bounded: a YAML "billion laughs" must not expand into gigabytes.
    parsed = json ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : "unreadable";
    throw invalid("/", `is not ${json ? "JSON" : "YAML"} (${reason})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw invalid("/", "must be an object");
  const openapi = (parsed as { openapi?: unknown }).openapi;
  if (typeof openapi !== "string" || !/^3\.[01]\.\d+$/.test(openapi)) {
    throw invalid("/openapi", "must be a 3.0.x or 3.1.x version string");
  }
  const result = await openApiValidator().validate(parsed as Record<string, unknown>);
  if (!result.valid) {
    const first = Array.isArray(result.errors) ? result.errors[0] : undefined;
    if (first !== undefined)
      throw invalid(first.instancePath === "" ? "/" : first.instancePath, first.message ?? first.keyword);
    throw invalid(
      "/",
      typeof result.errors === "string" ? result.errors : "does not match the OpenAPI schema",
    );
  }
  const document = parsed as OpenApiDocument;
  const info = (document as { info?: { title?: unknown } }).info;
  return {
    document,
    openapi,
    title: typeof info?.title === "string" ? info.title : "",
    operations: declaredOperations(document).length,
    sizeBytes,
  };
}

/** The operations a document declares: method and path template. */
export function declaredOperations(document: OpenApiDocument): Array<{ method: string; path: string }> {
  const operations: Array<{ method: string; path: string }> = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (item === null || typeof item !== "object") continue;
    for (const method of HTTP_METHODS) {
      if (item[method] !== undefined) operations.push({ method: method.toUpperCase(), path });
    }
  }
  return operations;
}
