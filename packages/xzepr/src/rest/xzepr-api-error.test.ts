import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { expect, it } from "vitest";
import { isXzeprApiError, XzeprApiError } from "./xzepr-api-error.js";

it("XzeprApiError is an XzatomaError XZEPR_API_ERROR that keeps XZepr's code as reason", () => {
  const error = new XzeprApiError({
    reason: "validation_error",
    message: "XZepr API POST /api/v1/receivers failed with HTTP 400 (validation_error): ...",
    method: "POST",
    path: "/api/v1/receivers",
    status: 400,
    field: "name",
  });
  expect(isXzatomaError(error)).toBe(true);
  expect(isXzeprApiError(error)).toBe(true);
  expect(error).toBeInstanceOf(XzatomaError);
  expect(isErrorCode(error.code)).toBe(true);
  expect(error.code).toBe("XZEPR_API_ERROR");
  expect(error).toMatchObject({
    reason: "validation_error",
    method: "POST",
    path: "/api/v1/receivers",
    status: 400,
    field: "name",
  });
  expect(error.fields).toEqual({
    reason: "validation_error",
    method: "POST",
    path: "/api/v1/receivers",
    status: 400,
    field: "name",
  });

  const unanswered = new XzeprApiError({
    reason: "network_error",
    message: "m",
    method: "GET",
    path: "/health",
  });
  expect(unanswered.status).toBeUndefined();
  expect(unanswered.fields).toEqual({ reason: "network_error", method: "GET", path: "/health" });
});
