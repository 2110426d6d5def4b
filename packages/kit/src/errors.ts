/**
 * Errors as values with the spec's codes. Domain code returns or throws an AppError; only the
 * kit turns it into an HTTP response (status from the error, enveloped body).
 */
export interface ErrorDetail {
  code: string;
  message: string;
  /** The offending field, as a JSON pointer-ish path (`/data/lines/0/amount`). */
  field?: string;
  value?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  constructor(status: number, code: string, message: string, details?: ErrorDetail[]) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details ?? [{ code, message }];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Shorthands so domain code reads like the spec's error table. */
export const badRequest = (code: string, message: string) => new AppError(400, code, message);
export const unauthorized = (message = 'Missing or invalid credentials') =>
  new AppError(401, 'unauthenticated', message);
export const forbidden = (message = 'Not permitted', code = 'forbidden') => new AppError(403, code, message);
export const notFound = (what: string, code = 'not_found') => new AppError(404, code, `${what} not found`);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const unprocessable = (code: string, message: string, field?: string) =>
  new AppError(422, code, message, [{ code, message, ...(field ? { field } : {}) }]);
export const unavailable = (code: string, message: string) => new AppError(503, code, message);

/** A result type for infrastructure calls (bus, storage, upstreams): says whether a retry helps. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: Error; retryable: boolean };
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: unknown, retryable: boolean): Result<never> => ({
  ok: false,
  error: error instanceof Error ? error : new Error(String(error)),
  retryable,
});
