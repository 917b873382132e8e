import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * Entries of `/etc` that hold secrets on common systems, hidden even where the
 * administrator left them readable: password hashes, sudo rules, SSH host keys and client
 * settings, TLS and VPN private keys, Kerberos keytabs, Wi-Fi and VPN connections, package
 * repository credentials, and systemd credentials.
 */
export const ETC_SECRETS: readonly string[] = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/doas.conf",
  "/etc/ssh",
  "/etc/ssl/private",
  "/etc/pki/tls/private",
  "/etc/security/opasswd",
  "/etc/krb5.keytab",
  "/etc/wireguard",
  "/etc/NetworkManager/system-connections",
  "/etc/ipsec.secrets",
  "/etc/ipsec.d/private",
  "/etc/ppp/chap-secrets",
  "/etc/ppp/pap-secrets",
  "/etc/openvpn",
  "/etc/letsencrypt",
  "/etc/apt/auth.conf",
  "/etc/apt/auth.conf.d",
  "/etc/docker/key.json",
  "/etc/containers/auth.json",
  "/etc/mysql/debian.cnf",
  "/etc/credstore",
  "/etc/credstore.encrypted",
];

/** What the sandbox hides in `/etc`, split by the kind of mask each entry needs. */
export interface EtcMasks {
  readonly files: readonly string[];
  readonly directories: readonly string[];
}

/** Upper bound on the entries looked at, so a strange `/etc` cannot stall the sandbox. */
const MAX_ENTRIES = 20_000;

/**
 * Walks `root` (normally `/etc`) and lists what to hide inside the sandbox: the known
 * secrets above, and every file or directory that other users may not read, because the
 * administrator marked it private (a command may run as the same user as its owner, even
 * root, so permissions alone would not stop it). What any user of the machine may read
 * stays visible, so programs find their configuration.
 */
export async function findEtcMasks(
  root = "/etc",
  secrets: readonly string[] = ETC_SECRETS,
): Promise<EtcMasks> {
  const files: string[] = [];
  const directories: string[] = [];
  const named = new Set(secrets);
  let seen = 0;
  const visit = async (directory: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (++seen > MAX_ENTRIES) return;
      const entry = path.join(directory, name);
      let stats;
      try {
        stats = await lstat(entry);
      } catch {
        continue;
      }
      // A link shows whatever it points at, which is masked or outside the sandbox.
      if (stats.isSymbolicLink()) continue;
      if (stats.isDirectory()) {
        const readable = (stats.mode & 0o005) === 0o005;
        if (named.has(entry) || !readable) directories.push(entry);
        else await visit(entry);
      } else if (named.has(entry) || (stats.mode & 0o004) === 0 || !stats.isFile()) {
        files.push(entry);
      }
    }
  };
  await visit(root);
  return { files, directories };
}
