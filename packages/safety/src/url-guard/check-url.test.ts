import { describe, expect, it } from "vitest";
import { createAllowance } from "./allowance.js";
import { checkMention, checkUrl } from "./check-url.js";

describe("checkUrl", () => {
  it("normalises the URL it judged and drops the fragment", () => {
    expect(checkUrl("HTTPS://Example.COM:443/a/../b?q=1#top")).toEqual({
      verdict: "allow",
      reason: "example.com is a host name; its addresses are checked when connecting",
      url: "https://example.com/b?q=1",
    });
  });

  it("judges what the parser connects to, not the raw text", () => {
    expect(checkUrl("http://%31%32%37.0.0.1/").verdict).toBe("block");
    expect(checkUrl("http:\\\\127.0.0.1/").verdict).toBe("block");
    expect(checkUrl(" http://127.0.0.1/ ").verdict).toBe("block");
    expect(checkUrl("http://example.com\\@127.0.0.1/").url).toBe("http://example.com/@127.0.0.1/");
    expect(checkUrl("http://xn--nxasmq6b.com/").verdict).toBe("allow");
  });

  it("refuses credentials, even empty-password ones, and odd schemes", () => {
    expect(checkUrl("https://a:@example.com/").refusal).toBe("credentials");
    expect(checkUrl("blob:https://example.com/x").refusal).toBe("scheme");
    expect(checkUrl("not a url").refusal).toBe("invalid-url");
    expect(checkUrl(`https://example.com/${"a".repeat(9000)}`).refusal).toBe("invalid-url");
  });

  it("asks first for other ports unless configured; port 0 is blocked", () => {
    expect(checkUrl("http://example.com:8443/").verdict).toBe("confirm");
    expect(checkUrl("http://example.com:8443/", { allowedPorts: [8443] }).verdict).toBe("allow");
    expect(checkUrl("https://example.com:80/").verdict).toBe("allow");
    expect(checkUrl("http://example.com:0/", { allowedPorts: [0] }).verdict).toBe("block");
  });

  it("allows exactly the user's own host:port, on private addresses too", () => {
    const options = { allowHosts: ["intranet.example:8443", "[fd00::5]:8080", "LOCALHOST"] };
    expect(checkUrl("https://intranet.example:8443/", options).verdict).toBe("allow");
    expect(checkUrl("https://intranet.example:8444/", options).verdict).toBe("confirm");
    expect(checkUrl("http://[fd00::5]:8080/", options).verdict).toBe("allow");
    expect(checkUrl("http://[fd00::5]:8081/", options).verdict).toBe("block");
    expect(checkUrl("http://localhost/", options).verdict).toBe("allow");
    expect(checkUrl("http://localhost:3000/", options).verdict).toBe("block");
  });

  it("allows configured ranges but never a metadata address", () => {
    const options = { allowCidrs: ["10.20.0.0/16", "169.254.0.0/16"] };
    expect(checkUrl("http://10.20.1.1/", options).verdict).toBe("allow");
    expect(checkUrl("http://[::ffff:10.20.1.1]/", options).verdict).toBe("allow");
    expect(checkUrl("http://10.21.1.1/", options).verdict).toBe("block");
    expect(checkUrl("http://169.254.169.254/", options).verdict).toBe("block");
    expect(checkUrl("http://169.254.169.254/", { allowHosts: ["169.254.169.254"] }).verdict).toBe(
      "block",
    );
  });

  it("rejects malformed configuration loudly", () => {
    expect(() => createAllowance({ allowHosts: ["http://x.example/"] })).toThrow(TypeError);
    expect(() => createAllowance({ allowHosts: ["x.example:99999"] })).toThrow(TypeError);
    expect(() => createAllowance({ allowCidrs: ["10.0.0.0"] })).toThrow(TypeError);
  });
});

describe("checkMention", () => {
  it("asks first for a mention that would be allowed, and blocks what checkUrl blocks", () => {
    expect(checkMention("@https://example.com/").verdict).toBe("confirm");
    expect(checkMention("https://example.com/").verdict).toBe("confirm");
    expect(checkMention("@http://127.0.0.1:8080/admin").verdict).toBe("block");
    expect(checkMention("@@http://example.com/").verdict).toBe("block");
  });
});
