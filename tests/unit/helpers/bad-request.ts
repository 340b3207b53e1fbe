// The fake's 400s as the real SDK raises them: a BadRequestError, whose message the tests read.
import Anthropic from "@anthropic-ai/sdk";
import { expect } from "vitest";

export async function badRequest(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Anthropic.BadRequestError);
  return (err as InstanceType<typeof Anthropic.BadRequestError>).message;
}
