import { describe, expect, it } from "vitest";
import { redactSecrets } from "./index.js";

// A kubeconfig as `kind` and `kubectl config view --raw` write it, with fake values.
const certificate = Buffer.from("-----BEGIN CERTIFICATE-----\nMIIC8jCCAdqgAwIBAgII").toString(
  "base64",
);
const key = Buffer.from("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAv7Qz").toString("base64");
const authority = Buffer.from("-----BEGIN CERTIFICATE-----\nMIIC5zCCAc+gAwIBAgIB").toString(
  "base64",
);
const serviceAccountToken = "kq7vmz2pt9ds4hxa0wn3";
const KUBECONFIG = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${authority}
    server: https://127.0.0.1:6443
  name: kind-dev
contexts:
- context:
    cluster: kind-dev
    user: kind-dev
  name: kind-dev
current-context: kind-dev
kind: Config
users:
- name: kind-dev
  user:
    client-certificate-data: ${certificate}
    client-key-data: ${key}
- name: ci-bot
  user:
    token: ${serviceAccountToken}
`;

describe("redactSecrets on a kubeconfig", () => {
  const redacted = redactSecrets(KUBECONFIG);

  it("hides the client key, the client certificate and a user's token", () => {
    for (const secret of [key, certificate, serviceAccountToken])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain("    client-key-data: [REDACTED]\n");
    expect(redacted).toContain("    client-certificate-data: [REDACTED]\n");
    expect(redacted).toContain("    token: [REDACTED]\n");
  });

  it("keeps the cluster's public parts readable", () => {
    expect(redacted).toContain(`certificate-authority-data: ${authority}`);
    expect(redacted).toContain("server: https://127.0.0.1:6443");
    expect(redacted).toContain("current-context: kind-dev");
  });
});
