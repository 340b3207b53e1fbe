import type { AnthropicErrorType } from "./types";

/** An error the fake answers with the API's error body (`{"type":"error","error":{…}}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: AnthropicErrorType,
    message: string,
  ) {
    super(message);
  }
}

export function invalid(message: string): ApiError {
  return new ApiError(400, "invalid_request_error", message);
}
