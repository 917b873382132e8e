import { describe, expect, it } from "vitest";
import { resolveXzeprClientOptions } from "./xzepr-client-options.js";

describe("resolveXzeprClientOptions", () => {
  it("takes the token from XZEPR_API_TOKEN only, and gives nothing without an API URL", () => {
    const config = { api_url: "http://127.0.0.1:8042" };
    expect(resolveXzeprClientOptions(config, { XZEPR_API_TOKEN: "t0k" })).toEqual({
      baseUrl: "http://127.0.0.1:8042",
      token: "t0k",
    });
    expect(resolveXzeprClientOptions(config, { XZEPR_API_TOKEN: " " })).toEqual({
      baseUrl: "http://127.0.0.1:8042",
    });
    expect(resolveXzeprClientOptions({}, { XZEPR_API_TOKEN: "t" })).toBe(undefined);
  });
});
