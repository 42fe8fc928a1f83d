// Schema pieces every route module repeats: documented problem responses and bearer security.
import { type ErrorCode, errorCatalogue } from "@sightline/contracts";
import { type TSchema, Type } from "typebox";

type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 503;

/**
 * `{401: Problem, 404: Problem, …}` for a route's responses: references to the one shared
 * Problem schema (registered by the OpenAPI plugin), each described with the codes it can carry.
 */
export function problemResponses(...statuses: ProblemStatus[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of statuses) {
    const codes = (Object.keys(errorCatalogue) as ErrorCode[]).filter(
      (code) => errorCatalogue[code].status === status,
    );
    responses[status] = Type.Unsafe({ $ref: "Problem#", description: `Problem: ${codes.join(" | ")}` });
  }
  return responses;
}

/** OpenAPI security requirement of routes guarded by `app.authenticate`. */
export const bearerSecurity = [{ bearerAuth: [] }];
