// Assertions on problem+json answers, shared by every route suite.
import { type ErrorCode, errorCatalogue, type Problem } from "@sightline/contracts";
import { expect } from "vitest";

interface InjectedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Asserts the response is a catalogue problem with `code` and returns its parsed body. */
export function expectProblem(
  response: InjectedResponse,
  code: ErrorCode,
): Problem & Record<string, unknown> {
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(response.body) as Problem & Record<string, unknown>;
  expect({ status: response.statusCode, error: body.error }).toEqual({
    status: errorCatalogue[code].status,
    error: code,
  });
  expect(body).toMatchObject({
    type: `urn:sightline:error:${code}`,
    title: errorCatalogue[code].title,
    status: errorCatalogue[code].status,
  });
  expect(typeof body.detail).toBe("string");
  expect(typeof body.instance).toBe("string");
  expect(body.request_id).toBe(response.headers["x-request-id"]);
  expect(response.body).not.toMatch(/\bat .+\.(ts|js):\d+/); // no stack frames
  return body;
}
