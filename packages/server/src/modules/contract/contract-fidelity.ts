// How well an inferred document describes traffic: the share of calls whose bodies it accepts,
// and the share of malformed bodies it rejects. Used by the tests and bench:contract.
import type { OpenApiDocument } from "./contract-document.js";
import { createDocumentValidator, pointerTo } from "./schema-validator.js";

export interface BodyCheck {
  readonly method: string;
  readonly route: string;
  /** "request" or a response status. */
  readonly part: "request" | number;
  readonly body: unknown;
}

/** The validator of each body's schema in `document`; a body without a schema counts as failing. */
export function bodyChecker(document: OpenApiDocument): (check: BodyCheck) => boolean {
  const validator = createDocumentValidator(document);
  return (check) => {
    const op = document.paths[check.route]?.[check.method.toLowerCase()];
    if (op === undefined) return false;
    const pointer =
      check.part === "request"
        ? pointerTo(
            "paths",
            check.route,
            check.method.toLowerCase(),
            "requestBody",
            "content",
            "application/json",
            "schema",
          )
        : pointerTo(
            "paths",
            check.route,
            check.method.toLowerCase(),
            "responses",
            String(check.part),
            "content",
            "application/json",
            "schema",
          );
    const validate = validator.at(pointer);
    return validate !== undefined && validate(check.body) === true;
  };
}
