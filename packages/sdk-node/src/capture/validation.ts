// Validation failures as Sightline stores them (field path, rule, message; never the offending
// value), read from what the usual validators throw or return: zod, ajv and Fastify's schema
// errors, class-validator (and NestJS's ValidationPipe), express-validator. Only read on the
// error path of a request, so the cost of a successful one does not change.
import { WIRE_LIMITS } from "../wire.js";

/** One failed field and rule. */
export interface ValidationIssue {
  /** Dotted path of the field (`body.items.0.qty`); empty for the input as a whole. */
  path: string;
  /** The rule it broke as the validator names it (`too_small`, `format`, `isEmail`). */
  rule: string;
  /** The validator's message, with the offending value taken out wherever it is known. */
  message: string;
}

/** Marks class-validator errors kept beside a NestJS ValidationPipe message list. */
export const NEST_VALIDATION = Symbol.for("sightline.nest-validation-errors");

type Loose = Record<string | symbol, unknown>;

const isObject = (value: unknown): value is Loose => value !== null && typeof value === "object";

/**
 * The issues of a validation failure, or undefined when `failure` is not one. Accepts what the
 * validators hand out: a ZodError (or its `issues`), an ajv `errors` array or an error carrying
 * one (Fastify's schema errors, ajv's ValidationError), class-validator's ValidationError list,
 * express-validator's Result or error list, and the BadRequestException of Nest's ValidationPipe.
 */
export function validationIssues(failure: unknown): ValidationIssue[] | undefined {
  if (!isObject(failure)) return undefined;
  const out: ValidationIssue[] = [];
  if (Array.isArray(failure)) readList(failure, "", out);
  else if (Array.isArray(failure.issues)) readZod(failure.issues, out);
  else if (Array.isArray(failure.validation)) {
    const context = typeof failure.validationContext === "string" ? failure.validationContext : "";
    readAjv(failure.validation, context, out);
  } else if (Array.isArray(failure.errors)) readList(failure.errors, "", out);
  else if (typeof failure.array === "function") {
    // express-validator's Result: array() lists its errors.
    const list: unknown = (failure.array as () => unknown).call(failure);
    if (Array.isArray(list)) readExpressValidator(list, out);
  } else if (typeof failure.getResponse === "function") readNest(failure, out);
  return out.length === 0 ? undefined : out.slice(0, WIRE_LIMITS.validationErrorCount);
}

/** A list of one validator's entries, recognised by the shape of its first entry. */
function readList(list: readonly unknown[], prefix: string, out: ValidationIssue[]): void {
  const first = list[0];
  if (!isObject(first)) return;
  if (typeof first.keyword === "string") readAjv(list, prefix, out);
  else if (typeof first.code === "string" && Array.isArray(first.path)) readZod(list, out);
  else if (typeof first.property === "string") readClassValidator(list, prefix, out);
  else if (typeof first.msg !== "undefined") readExpressValidator(list, out);
}

function readZod(issues: readonly unknown[], out: ValidationIssue[]): void {
  for (const issue of issues) {
    if (!isObject(issue) || typeof issue.code !== "string") continue;
    const path = Array.isArray(issue.path) ? issue.path.map((part) => String(part)).join(".") : "";
    // zod names the value in a few messages (v3: `received 'x'` of an enum); v4 can report the input.
    const values = [issue.received, issue.input].filter(
      (v) => v !== undefined && issue.code !== "invalid_type",
    );
    push(out, path, issue.code, text(issue.message), values);
  }
}

function readAjv(errors: readonly unknown[], context: string, out: ValidationIssue[]): void {
  for (const error of errors) {
    if (!isObject(error) || typeof error.keyword !== "string") continue;
    // instancePath (ajv 8) or dataPath (ajv 6) is a JSON pointer (or `.a.b`) to the parent for `required`.
    const pointer = typeof error.instancePath === "string" ? error.instancePath : text(error.dataPath);
    const parts = pointer
      .split(/[/.]/)
      .filter((part) => part !== "")
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
    const params = isObject(error.params) ? error.params : {};
    const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    if (typeof named === "string") parts.push(named);
    if (context !== "") parts.unshift(context);
    push(out, parts.join("."), error.keyword, text(error.message), [error.data]);
  }
}

function readClassValidator(errors: readonly unknown[], prefix: string, out: ValidationIssue[]): void {
  for (const error of errors) {
    if (!isObject(error) || typeof error.property !== "string") continue;
    const path = prefix === "" ? error.property : `${prefix}.${error.property}`;
    if (isObject(error.constraints)) {
      for (const [rule, message] of Object.entries(error.constraints)) {
        push(out, path, rule, text(message), [error.value]);
      }
    }
    if (Array.isArray(error.children) && error.children.length > 0)
      readClassValidator(error.children, path, out);
  }
}

function readExpressValidator(errors: readonly unknown[], out: ValidationIssue[]): void {
  for (const error of errors) {
    if (!isObject(error)) continue;
    // v7: {type: "field", location, path}; v6: {location, param}; alternatives: {nestedErrors}.
    const field = text(error.path) || text(error.param);
    const location = text(error.location);
    const path = location !== "" && field !== "" ? `${location}.${field}` : field || location;
    // express-validator does not name its rules; its message is what the app chose to say.
    push(
      out,
      path,
      text(error.type) === "field" || error.type === undefined ? "invalid" : text(error.type),
      text(error.msg),
      [error.value],
    );
  }
}

/** Nest's ValidationPipe answers with a BadRequestException listing messages; the SDK keeps the
 *  class-validator errors beside that list (see the NestJS adapter). */
function readNest(exception: Loose, out: ValidationIssue[]): void {
  let response: unknown;
  try {
    response = (exception.getResponse as () => unknown).call(exception);
  } catch {
    return;
  }
  if (!isObject(response) || !Array.isArray(response.message)) return;
  const kept = (response.message as unknown as Loose)[NEST_VALIDATION];
  if (Array.isArray(kept)) readClassValidator(kept, "", out);
}

function push(
  out: ValidationIssue[],
  path: string,
  rule: string,
  message: string,
  values: readonly unknown[],
): void {
  if (out.length >= WIRE_LIMITS.validationErrorCount) return;
  out.push({
    path: path.slice(0, WIRE_LIMITS.validationPathLength),
    rule: (rule === "" ? "invalid" : rule).slice(0, WIRE_LIMITS.validationRuleLength),
    message: withoutValues(message, values).slice(0, WIRE_LIMITS.validationMessageLength),
  });
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/**
 * The message with the offending values taken out: quoted anywhere, and bare when long enough
 * not to be a word of the message itself (a value of `1` stays in "must be at least 1").
 */
function withoutValues(message: string, values: readonly unknown[]): string {
  let out = message;
  for (const value of values) {
    if (value === undefined || value === null || typeof value === "object" || typeof value === "function")
      continue;
    const shown = String(value);
    if (shown === "") continue;
    for (const quoted of [`'${shown}'`, `"${shown}"`, `\`${shown}\``])
      out = out.replaceAll(quoted, "[value]");
    if (shown.length >= 4) out = out.replaceAll(shown, "[value]");
  }
  return out;
}
