// One 422 for every field problem found, so a client fixes them all in one round trip.
import type { FieldError } from "@sightline/contracts";
import { AppError } from "../../errors.js";

export function invalidFields(errors: readonly FieldError[]): AppError {
  return new AppError("validation_error", errors.map((e) => `${e.pointer} ${e.message}`).join("; "), {
    errors,
  });
}
