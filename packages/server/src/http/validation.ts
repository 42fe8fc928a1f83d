// Schema validation for routes: bodies are validated strictly (a JSON string is never taken
// for a number), query strings, path params and headers are coerced from text. Every failing
// field is reported (allErrors), so a client fixes all problems in one round trip.
import { Ajv, type ErrorObject, type Options } from "ajv";
import formatsPlugin from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import type { FieldError } from "@sightline/contracts";

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    useDefaults: true,
    removeAdditional: false,
    ...options,
  });
  // ajv-formats is CommonJS: under NodeNext its default export is the module object.
  formatsPlugin.default(ajv);
  return ajv;
}

const bodyAjv = createAjv({ coerceTypes: false });
const textAjv = createAjv({ coerceTypes: "array" });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === "body" ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};

/** Where a validation problem sits: a JSON Pointer into the body, or `#/<part>/<name>`. */
export function pointerOf(error: ErrorObject, context: string | undefined): string {
  const params = error.params as Record<string, unknown>;
  const child =
    typeof params.missingProperty === "string"
      ? `/${escapePointer(params.missingProperty)}`
      : typeof params.additionalProperty === "string"
        ? `/${escapePointer(params.additionalProperty)}`
        : "";
  const path = `${error.instancePath}${child}`;
  if (context === undefined || context === "body") return path === "" ? "/" : path;
  const part = context === "querystring" ? "query" : context === "params" ? "path" : context;
  return `#/${part}${path}`;
}

/** A message a person can act on, without the schema jargon where it is avoidable. */
export function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return "is required";
    case "additionalProperties":
      return "is not a known field";
    case "enum":
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "type":
      return Array.isArray(params.type)
        ? `must be ${params.type.join(" or ")}`
        : `must be ${String(params.type)}`;
    default:
      return error.message ?? "is invalid";
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * A checker of JSON arguments against a schema outside a route (MCP tool arguments): body rules
 * (no coercion, defaults applied), every problem as a field error; an empty list when valid.
 */
export function compileArgumentsValidator(schema: object): (value: unknown) => FieldError[] {
  const validate = bodyAjv.compile(schema);
  return (value) =>
    validate(value)
      ? []
      : (validate.errors ?? []).map((error) => ({
          pointer: pointerOf(error, "body"),
          message: messageOf(error),
        }));
}
