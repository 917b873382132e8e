import path from "node:path";
import { isProtectedPath, isSecretFileName } from "../protected-paths.js";
import type { ArgvContext } from "./context.js";
import { refused } from "./denylist.js";

/**
 * What interpreter code (`python -c`, `node -e`, `perl -e`, …) does that a command rule
 * would refuse if a program did it: writing a file that makes another tool run code
 * (`open('.git/hooks/pre-commit','w')`), sending a secret file or the whole environment
 * over the network, and listening for connections. Judged from the code's string
 * literals and the calls it makes; only clear cases block, the rest needs confirmation
 * as all inline code does.
 */

/** Calls that write, copy, move or link files, in the usual interpreter languages. */
const WRITES =
  /\bopen\s*\((?:[^()]|\([^()]*\))*,\s*['"][^'"]*[wax+][^'"]*['"]|\.write_(?:text|bytes)\s*\(|\b(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFile|copyFileSync|file_put_contents|symlinkSync|renameSync|linkSync)\b|\bfs\.(?:write|rename|symlink|link|cp)\w*\s*\(|\bshutil\.(?:copy\w*|move)\s*\(|\bos\.(?:rename|replace|symlink|link)\s*\(|\b(?:File|IO)\.(?:write|binwrite|symlink|rename)\s*\(|\bFile\.open\s*\([^)]*['"][wa]|\bfopen\s*\([^)]*['"][wax]|\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['"]\+?>|\bFileUtils\.(?:cp|mv|ln_s|install)\b/;

/** Calls that send data to another host. */
const SENDS =
  /\brequests\.(?:post|put|patch|request)\b|\burlopen\s*\([^)]*,|\burllib\.request\.Request\s*\([^)]*data|\bhttp\.client\b|\bhttps?\.request\s*\(|\bfetch\s*\([^)]*\b(?:body|method)\b|\baxios\b|\bXMLHttpRequest\b|\bNet::HTTP\.(?:post|put)|\bHTTP::Tiny\b[\s\S]*\b(?:post|put|request)\b|\bLWP::UserAgent\b|\bsendall\s*\(|\bsocket\.send\b|\.send\s*\(|\bsmtplib\b|\bftplib\b|\bcurl_exec\b|\bWebSocket\b|\bnet\.connect\b|\btls\.connect\b|\bIO::Socket\b|\bfsockopen\b/;

/** The whole environment as data (not one variable): `os.environ`, `process.env`, `%ENV`, `ENV.to_h`. */
const ENVIRONMENT =
  /\bos\.environ\b(?!\s*(?:\[|\.get\b))|\bdict\s*\(\s*os\.environ\s*\)|\bprocess\.env\b(?!\s*(?:\.|\[))|%ENV\b(?!\s*\{)|\bENV\.(?:to_h|to_a|inspect|map|each)\b|\bgetenv\s*\(\s*\)|\bSystem\.getenv\s*\(\s*\)/;

/** Servers: code that binds and listens, or starts an HTTP server. */
const LISTENS =
  /\bserve_forever\b|\b(?:Threading)?(?:HTTP|TCP|UDP)Server\s*\(|\bWEBrick::HTTPServer\b|\bcreateServer\s*\([\s\S]*\.listen\s*\(|\.bind\s*\([\s\S]*\.listen\s*\(|\bListen\s*=>|\bapp\.run\s*\(|\buvicorn\.run\s*\(|\bBun\.serve\s*\(|\bDeno\.serve\s*\(|\bsocket_listen\s*\(|\bstream_socket_server\s*\(/;

function resolveLiteral(literal: string, ctx: ArgvContext): string | null {
  const text = literal.replace(/^\+?[<>]+\s*/, "").trim();
  if (text === "" || text.length > 256 || /[\s\n*?]/.test(text) || !/[./]/.test(text)) return null;
  if (text.startsWith("~/")) return path.posix.join(ctx.policy.home, text.slice(2));
  return path.posix.resolve(ctx.cwd ?? ctx.policy.root, text);
}

/**
 * Blocks interpreter code that writes a protected file, sends a secret file or the whole
 * environment over the network, or listens for connections. `literals` are the code's
 * string literals.
 */
export function checkCodeEffects(
  code: string,
  literals: readonly string[],
  label: string,
  ctx: ArgvContext,
): void {
  if (code.length > 65_536) return;
  if (WRITES.test(code)) {
    for (const literal of literals) {
      const absolute = resolveLiteral(literal, ctx);
      if (absolute !== null && isProtectedPath(ctx.policy.root, absolute)) {
        ctx.findings.block(
          refused(label, `writes \`${literal}\`, a file that makes another program run code later`),
        );
        break;
      }
    }
  }
  if (SENDS.test(code)) {
    const secret = literals.find((literal) => literal.length <= 256 && isSecretFileName(literal));
    if (secret !== undefined)
      ctx.findings.block(
        refused(
          label,
          `sends \`${secret}\`, a file that holds secrets, over the network (exfiltration)`,
        ),
      );
    if (ENVIRONMENT.test(code))
      ctx.findings.block(
        refused(label, "sends the environment, with its secrets, over the network (exfiltration)"),
      );
  }
  if (LISTENS.test(code))
    ctx.findings.block(
      refused(label, "listens for network connections and serves this machine to others"),
    );
}
