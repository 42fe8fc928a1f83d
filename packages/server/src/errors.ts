// AppError: how services report a business failure without knowing HTTP. The error plugin
// turns it into a problem+json answer using the status and title of the catalogue.
import { type ErrorCode, errorCatalogue, type FieldError } from "@sightline/contracts";

export interface AppErrorOptions {
  /** Field-level problems (validation); each becomes one entry of `errors`. */
  readonly errors?: readonly FieldError[];
  /** Extra response headers, e.g. Retry-After for rate limits and overload. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra members merged into the problem body (RFC 9457 extension members). */
  readonly extensions?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: AppErrorOptions = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = "AppError";
    this.status = errorCatalogue[code].status;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
