import { describe, expect, it } from "vitest";
import { mcpServerEnvironment } from "./mcp-server-environment.js";

describe("mcpServerEnvironment", () => {
  it("lets through what reaching the network needs, in both spellings of the proxies", () => {
    const passed = {
      HTTP_PROXY: "http://proxy.internal:3128",
      https_proxy: "http://proxy.internal:3128",
      HTTPS_PROXY: "http://proxy.internal:3128",
      no_proxy: "localhost,.internal",
      NO_PROXY: "localhost,.internal",
      ALL_PROXY: "socks5://proxy.internal:1080",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/corp-ca.pem",
      NODE_USE_ENV_PROXY: "1",
      SSL_CERT_FILE: "/etc/ssl/certs/ca-bundle.crt",
      SSL_CERT_DIR: "/etc/ssl/certs",
      REQUESTS_CA_BUNDLE: "/etc/ssl/corp-ca.pem",
      CURL_CA_BUNDLE: "/etc/ssl/corp-ca.pem",
      GIT_SSL_CAINFO: "/etc/ssl/corp-ca.pem",
      npm_config_registry: "https://registry.internal/",
      npm_config_cafile: "/etc/ssl/corp-ca.pem",
      NPM_CONFIG_STRICT_SSL: "true",
      HOME: "/home/user",
      PATH: "/usr/bin:/bin",
      LANG: "en_GB.UTF-8",
      LC_ALL: "en_GB.UTF-8",
      TMPDIR: "/tmp",
    };
    expect(mcpServerEnvironment(passed)).toEqual(passed);
  });

  it("keeps out every variable whose name is a credential, in any family, and everything else", () => {
    const kept = mcpServerEnvironment({
      PATH: "/usr/bin",
      GITHUB_TOKEN: "ghp_x",
      OPENAI_API_KEY: "sk-x",
      AWS_SECRET_ACCESS_KEY: "x",
      AWS_ACCESS_KEY_ID: "x",
      DATABASE_PASSWORD: "x",
      SERVICE_CREDENTIALS: "x",
      COPILOT_GITHUB_TOKEN: "x",
      npm_config__authToken: "x",
      "npm_config_//registry.internal/:_authToken": "x",
      npm_config__auth: "x",
      npm_config_password: "x",
      SSL_CERT_PASSPHRASE: "x",
      XZATOMA_PROVIDER: "ollama",
      EDITOR: "vim",
      KAFKA_BROKERS: "localhost:9092",
    });
    expect(kept).toEqual({ PATH: "/usr/bin" });
  });

  it("never passes an exported shell function", () => {
    expect(mcpServerEnvironment({ HTTPS_PROXY: "() { curl evil; }", PATH: "/bin" })).toEqual({
      PATH: "/bin",
    });
  });
});
