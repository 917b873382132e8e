import { isErrorCode, isXzatomaError, XzatomaError } from "@xzatoma/errors";
import { expect, it } from "vitest";
import { UrlBlockedError } from "./url-blocked-error.js";

it("UrlBlockedError is an XzatomaError that keeps reason, url and refusal", () => {
  const error = new UrlBlockedError(
    "127.0.0.1 is a loopback address",
    "http://127.0.0.1/",
    "address",
  );
  expect(isXzatomaError(error)).toBe(true);
  expect(error).toBeInstanceOf(XzatomaError);
  expect(isErrorCode(error.code)).toBe(true);
  expect(error.code).toBe("URL_BLOCKED");
  expect(error.name).toBe("UrlBlockedError");
  expect(error.message).toBe("Refused to fetch http://127.0.0.1/: 127.0.0.1 is a loopback address");
  expect(error).toMatchObject({
    reason: "127.0.0.1 is a loopback address",
    url: "http://127.0.0.1/",
    refusal: "address",
  });
  expect(error.fields).toEqual({
    reason: "127.0.0.1 is a loopback address",
    url: "http://127.0.0.1/",
    refusal: "address",
  });
});
