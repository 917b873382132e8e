import type { Arg, ArgvContext } from "./context.js";
import { refused } from "./denylist.js";
import { parseOptions } from "./option-scan.js";

/**
 * Tunnels, port forwarding and listeners open a way into the machine, or out of any
 * network policy, that outlives the command: a reverse tunnel publishes a local port to
 * the internet, a dynamic forward is a proxy into the network the agent runs in, a
 * listener serves the workspace. Refused in every mode.
 */
const TUNNEL = "opens a tunnel or forwards ports, a way into or out of this machine's network";
const LISTENER = "listens for network connections and serves this machine to others";

/** Programs whose whole purpose is a tunnel, a proxy or a relay. */
const TUNNEL_PROGRAMS = new Set(
  `
  autossh sshuttle ngrok cloudflared lt localtunnel bore frpc frps chisel stunnel
  stunnel4 stunnel5 iodine iodined dnscat dnscat2 gost rathole inlets pagekite
  pagekite.py tmate zrok telebit tunnelmole tmole loophole devtunnel ligolo ligolo-ng
  ligolo-proxy ligolo-agent revsocks microsocks 3proxy sockd danted tinyproxy ptunnel
  ptunnel-ng hans udp2raw wstunnel sish proxytunnel corkscrew redsocks ssf ssfd expose
  serveo pinggy playit localxpose loclx openvpn wg-quick zerotier-one nebula tincd sslh
  rinetd redir
  `
    .trim()
    .split(/\s+/),
);

/** Programs that serve files or a shell to the network as soon as they start. */
const LISTENER_PROGRAMS = new Set(
  `
  http-server live-server simplehttpserver updog miniserve httpd lighttpd webfsd
  darkhttpd thttpd uploadserver pyftpdlib twistd static-web-server sshd dropbear telnetd
  in.telnetd inetd xinetd vsftpd proftpd pure-ftpd tftpd in.tftpd smbd gotty ttyd
  shellinaboxd
  `
    .trim()
    .split(/\s+/),
);

/** `python -m MODULE` modules that listen (`python3 -m http.server 8000`). */
const LISTENER_MODULES =
  /^(?:http\.server|SimpleHTTPServer|CGIHTTPServer|pyftpdlib|uploadserver|smtpd|aiosmtpd|twisted|http\.server\.\w+|wsgiref\.simple_server|xmlrpc\.server|RangeHTTPServer|updog)$/;

/** ssh options that forward ports or tunnel (`-L`, `-R`, `-D`, `-w`) and settings that do. */
const SSH_FORWARDS = new Set(["-L", "-R", "-D", "-w", "-W"]);
const SSH_SETTINGS =
  /^\s*(?:LocalForward|RemoteForward|DynamicForward|ProxyCommand|Tunnel|TunnelDevice|LocalCommand|PermitLocalCommand|GatewayPorts|PermitRemoteOpen)\b/i;
const SSH_VALUES = "BbcDEeFIiJLlmOopQRSWw";
/** `websocat` endpoints and options that listen. */
const WEBSOCAT_LISTENS =
  /^(?:-s|--server-mode|-E|(?:ws|wss|tcp|unix|udp|ssl|tls|abstract|seqpacket)-l(?:isten)?:|l-)/;

/** Whether `name` is a tunnel or listener program (for finding one hidden in other arguments). */
export function isTunnelProgram(name: string): boolean {
  return TUNNEL_PROGRAMS.has(name) || LISTENER_PROGRAMS.has(name);
}

function block(ctx: ArgvContext, subject: string, why = TUNNEL): void {
  ctx.findings.block(refused(subject, why));
}

/**
 * ssh-style option words (`ssh`, `autossh`, `--ssh-flag=…`, `-- -L …` passed to ssh).
 * OpenSSH reads options after the destination too (`ssh host -L 1:x:2`), up to the command.
 */
function checkSshOptions(name: string, words: readonly Arg[], ctx: ArgvContext): void {
  const table = { shortValue: SSH_VALUES, stopAtOperand: true };
  const before = parseOptions(words, table);
  const after = parseOptions(before.operands.slice(1), table);
  for (const option of [...before.options, ...after.options]) {
    if (SSH_FORWARDS.has(option.name))
      block(ctx, `${name} ${option.name} ${option.value?.raw ?? ""}`.trim());
    if (option.name === "-o" && option.value !== null && SSH_SETTINGS.test(option.value.value))
      block(ctx, `${name} -o ${option.value.value}`);
    if (option.name === "-O" && option.value?.value === "forward") block(ctx, `${name} -O forward`);
  }
}

/** Words given to ssh through another tool (`gcloud compute ssh … -- -L …`, `--ssh-flag=-R…`). */
function passedToSsh(args: readonly Arg[]): Arg[] {
  const dashes = args.findIndex((arg) => arg.value === "--");
  const flags = args.flatMap((arg) => {
    const flag = /^--(?:ssh-flag|ssh-option|ssh-args|extra-args)=(.*)$/s.exec(arg.value);
    return flag === null
      ? []
      : (flag[1] ?? "")
          .split(/\s+/)
          .filter((word) => word !== "")
          .map((word) => ({ ...arg, value: word }));
  });
  return [...flags, ...(dashes === -1 ? [] : args.slice(dashes + 1))];
}

function cloudTunnel(name: string, values: readonly string[]): boolean {
  const words = values.filter((value) => !value.startsWith("-"));
  const has = (...sequence: string[]) => sequence.every((word, index) => words[index] === word);
  return (
    ((name === "kubectl" || name === "oc" || name === "k3s") &&
      ["port-forward", "proxy"].some((verb) => words.includes(verb))) ||
    (name === "gcloud" && words.includes("start-iap-tunnel")) ||
    (name === "aws" &&
      has("ssm", "start-session") &&
      values.some((value) => /PortForwarding|AWS-StartSSHSession/i.test(value))) ||
    (name === "az" && has("network", "bastion", "tunnel")) ||
    (name === "tailscale" && (words[0] === "funnel" || words[0] === "serve")) ||
    (name === "code" && words[0] === "tunnel") ||
    (name === "gh" && has("codespace", "ports", "forward")) ||
    (name === "minikube" && words[0] === "tunnel") ||
    (name === "vagrant" && words[0] === "share") ||
    ((name === "fly" || name === "flyctl") && words[0] === "proxy") ||
    (name === "zerotier-cli" && words[0] === "join") ||
    (name === "wg" && words[0] === "set") ||
    (name === "caddy" &&
      ["file-server", "reverse-proxy", "run", "start"].includes(words[0] ?? "")) ||
    (name === "rsync" && values.includes("--daemon")) ||
    name === "cloudflared"
  );
}

function listens(name: string, values: readonly string[]): boolean {
  const python = /^python[0-9.]*$|^pypy[0-9.]*$/.test(name);
  const moduleIndex = values.findIndex((value) => value === "-m" || /^-m\S/.test(value));
  const module =
    moduleIndex === -1
      ? undefined
      : values[moduleIndex] === "-m"
        ? values[moduleIndex + 1]
        : values[moduleIndex]?.slice(2);
  if (python && module !== undefined && LISTENER_MODULES.test(module)) return true;
  if (/^php[0-9.]*$/.test(name) && values.some((value) => value === "-S" || /^-S\S/.test(value)))
    return true;
  if (
    /^ruby[0-9.]*$/.test(name) &&
    values.some((value) => /^-run$/.test(value)) &&
    values.some((value) => /httpd/.test(value))
  )
    return true;
  if (name === "openssl" && values[0] === "s_server") return true;
  if (name === "websocat" && values.some((value) => WEBSOCAT_LISTENS.test(value))) return true;
  if (name === "git" && values.includes("daemon")) return true;
  if (
    name === "busybox" &&
    ["httpd", "nc", "telnetd", "ftpd", "tcpsvd", "udpsvd"].includes(values[0] ?? "")
  )
    return true;
  if (["npx", "pnpx", "bunx"].includes(name) || (name === "yarn" && values[0] === "dlx")) {
    const tool = values.find((value) => !value.startsWith("-") && value !== "dlx") ?? "";
    const bare = tool.replace(/@[^/]*$/, "");
    return (
      LISTENER_PROGRAMS.has(bare) ||
      TUNNEL_PROGRAMS.has(bare) ||
      ["serve", "localtunnel", "ngrok"].includes(bare)
    );
  }
  return LISTENER_PROGRAMS.has(name);
}

/**
 * Rules for tunnels, port forwarding and listeners: tunnel programs, ssh forwards
 * (`-L/-R/-D/-w`, `-o LocalForward/RemoteForward/DynamicForward/ProxyCommand/Tunnel`),
 * cloud port forwarding (`kubectl port-forward`, `gcloud … start-iap-tunnel`, `aws ssm`
 * port forwarding, `tailscale funnel`), and servers (`python -m http.server`, `php -S`)
 * block. In embedded mode a program name alone (`man ngrok`) is not enough.
 */
export function checkTunnels(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const values = args.slice(1).map((arg) => arg.value);
  if (ctx.embedded && values.length === 0) return;
  if (TUNNEL_PROGRAMS.has(name)) block(ctx, `${name} ${values.slice(0, 2).join(" ")}`.trim());
  if (["ssh", "autossh", "slogin", "mosh"].includes(name))
    checkSshOptions(name, args.slice(1), ctx);
  if (["scp", "sftp", "rsync", "git"].includes(name))
    for (const [index, arg] of args.entries()) {
      const setting = /^-o(.*)$/.exec(arg.value);
      const value =
        setting === null ? undefined : setting[1] !== "" ? setting[1] : args[index + 1]?.value;
      if (value !== undefined && SSH_SETTINGS.test(value)) block(ctx, `${name} -o ${value}`);
    }
  const passed = passedToSsh(args.slice(1));
  if (passed.length > 0 && ["gcloud", "az", "vagrant", "gh", "multipass", "lxc"].includes(name))
    checkSshOptions(name, passed, ctx);
  if (cloudTunnel(name, values)) block(ctx, `${name} ${values.slice(0, 3).join(" ")}`.trim());
  if (listens(name, values)) block(ctx, `${name} ${values.slice(0, 3).join(" ")}`.trim(), LISTENER);
}
