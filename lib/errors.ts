/** An error that reaches the client as `{ error: { code, message, details } }` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string, id?: string) =>
  new AppError(404, "not_found", `${what} not found`, id ? { id } : undefined);

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, "invalid_request", message, details);

export const conflict = (code: string, message: string, details?: unknown) =>
  new AppError(409, code, message, details);
