import { describe, expect, it } from "vitest";
import { parseProxyRequest } from "./proxy-request.js";

const head = (...lines: string[]) => lines.join("\r\n");

describe("parseProxyRequest", () => {
  it("reads a CONNECT target as the URL parser normalises hosts", () => {
    expect(
      parseProxyRequest(head("CONNECT Registry.Example.ORG.:443 HTTP/1.1", "Host: x")),
    ).toEqual({
      kind: "connect",
      host: "registry.example.org",
      port: 443,
    });
    expect(parseProxyRequest("CONNECT [::1]:8443 HTTP/1.1")).toEqual({
      kind: "connect",
      host: "::1",
      port: 8443,
    });
    // Other spellings of an address are the address, so allowHost sees what is connected to.
    expect(parseProxyRequest("CONNECT 0x7f.1:443 HTTP/1.1")).toMatchObject({ host: "127.0.0.1" });
    expect(parseProxyRequest("CONNECT bücher.example:443 HTTP/1.1")).toMatchObject({
      host: "xn--bcher-kva.example",
    });
  });

  it("refuses CONNECT targets that are not exactly host:port", () => {
    for (const target of [
      "example.com",
      "example.com:0",
      "example.com:65536",
      "user@example.com:443",
      "example.com:443/path",
      "[::1]",
      ":443",
    ]) {
      expect(parseProxyRequest(`CONNECT ${target} HTTP/1.1`)).toMatchObject({
        kind: "malformed",
        status: 400,
      });
    }
  });

  it("turns an absolute-form request into the origin's request: its own Host, no proxy headers, Connection: close", () => {
    const request = parseProxyRequest(
      head(
        "GET http://Example.COM:8080/a/b?c=d HTTP/1.1",
        "Host: attacker.example",
        "Proxy-Authorization: Basic c2VjcmV0",
        "Proxy-Connection: keep-alive",
        "Connection: keep-alive, X-Drop",
        "X-Drop: 1",
        "Accept: application/json",
      ),
    );
    expect(request).toEqual({
      kind: "forward",
      host: "example.com",
      port: 8080,
      originHead: head(
        "GET /a/b?c=d HTTP/1.1",
        "Host: example.com:8080",
        "Accept: application/json",
        "Connection: close",
        "",
        "",
      ),
    });
    expect(parseProxyRequest("GET http://[2001:db8::1]/ HTTP/1.0")).toMatchObject({
      host: "2001:db8::1",
      port: 80,
      originHead: "GET / HTTP/1.0\r\nHost: [2001:db8::1]\r\nConnection: close\r\n\r\n",
    });
  });

  it("refuses what it cannot forward faithfully", () => {
    const cases: [string, number][] = [
      ["GET /relative HTTP/1.1", 400],
      ["GET https://example.com/ HTTP/1.1", 405],
      ["GET ftp://example.com/ HTTP/1.1", 405],
      ["GET http://user:pass@example.com/ HTTP/1.1", 400],
      ["GET http://example.com/ HTTP/2.0", 400],
      ["GET  http://example.com/ HTTP/1.1", 400],
      ["G(T http://example.com/ HTTP/1.1", 400],
      [head("GET http://example.com/ HTTP/1.1", " folded: header"), 400],
      [head("GET http://example.com/ HTTP/1.1", "no colon"), 400],
    ];
    for (const [text, status] of cases) {
      expect(parseProxyRequest(text), text).toMatchObject({ kind: "malformed", status });
    }
  });
});
