// Validating payloads against a contract's schemas with Ajv in OpenAPI 3.1's dialect (JSON Schema
// 2020-12, formats from ajv-formats). A whole document is added once under its own id, so a
// schema anywhere in it is compiled by a JSON pointer and its local $refs resolve by themselves.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";

/** One failure: where in the payload (JSON pointer) and which keyword; never the value. */
export interface SchemaFailure {
  readonly pointer: string;
  readonly keyword: string;
}

export interface DocumentValidator {
  /** The validator of the schema at `pointer` (`#/paths/…/schema`) in the document. */
  at(pointer: string): ValidateFunction | undefined;
}

function createAjv(): Ajv2020 {
  // strict off: declared documents carry OpenAPI keywords (example, xml, discriminator…) that
  // JSON Schema does not know; validateFormats on: a broken uuid is a violation.
  const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: true, validateSchema: false });
  // ajv-formats is CommonJS: under NodeNext its default export is the module object.
  formatsPlugin.default(ajv);
  return ajv;
}

/** The first failure of a validation, as pointer + keyword. */
export function firstFailure(errors: readonly ErrorObject[] | null | undefined): SchemaFailure {
  const error = errors?.[0];
  if (error === undefined) return { pointer: "", keyword: "unknown" };
  const pointer =
    error.keyword === "required" && typeof error.params.missingProperty === "string"
      ? `${error.instancePath}/${String(error.params.missingProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`
      : error.instancePath;
  return { pointer: pointer === "" ? "/" : pointer, keyword: error.keyword };
}

/** A validator over `document` (an OpenAPI object whose schemas use JSON Schema 2020-12). */
export function createDocumentValidator(document: object): DocumentValidator {
  const ajv = createAjv();
  const id = "sightline:contract";
  ajv.addSchema(openApi30Nulls(structuredClone(document) as Record<string, unknown>), id);
  const compiled = new Map<string, ValidateFunction | undefined>();
  return {
    at(pointer) {
      if (!compiled.has(pointer)) {
        let validate: ValidateFunction | undefined;
        try {
          validate = ajv.compile({ $ref: `${id}${pointer}` });
        } catch {
          validate = undefined;
        }
        compiled.set(pointer, validate);
      }
      return compiled.get(pointer);
    },
  };
}

/** Rewrites OpenAPI 3.0's `nullable: true` into a type array, in place; returns the value. */
function openApi30Nulls<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) openApi30Nulls(item);
  } else if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    if (object.nullable === true && typeof object.type === "string") {
      object.type = [object.type, "null"];
      if (Array.isArray(object.enum) && !object.enum.includes(null))
        object.enum = [...(object.enum as unknown[]), null];
      delete object.nullable;
    }
    for (const child of Object.values(object)) openApi30Nulls(child);
  }
  return value;
}

/** `/paths/{path}/get/…` pointer pieces escaped. */
export function pointerTo(...parts: readonly string[]): string {
  return `#/${parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}
