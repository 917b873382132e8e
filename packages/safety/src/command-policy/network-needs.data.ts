/**
 * Commands that need the network, as data: a program alone (`curl`), or a program with the
 * subcommands that reach the network (`git clone`, `npm install`). The sandbox has no
 * network, so such a command escalates: a person decides, or the user allowed its hosts
 * (`agent.terminal.network`), and it runs with an egress proxy to those hosts only.
 *
 * This is a list of what a command needs, not a list of attacks: a program missing here
 * runs in the sandbox without network and fails there, it does not reach anything. An
 * entry saves a failed run and tells the person why up front. Programs that reach the
 * network only sometimes (`npx tsc` runs a local binary, `npx cowsay` downloads one) are
 * left out: they run in the sandbox and say so when they fail.
 */
export const NETWORK_PROGRAMS: ReadonlySet<string> = new Set(
  (
    "curl wget wget2 aria2c http https xh ssh scp sftp rsync ftp lftp telnet nc ncat netcat " +
    "socat ping dig nslookup host whois pipx gh glab aws gcloud az kubectl helm"
  ).split(" "),
);

/**
 * Subcommands that reach the network, per program. `""` stands for the program run with
 * no subcommand (`yarn` alone installs).
 */
export const NETWORK_SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    git: "clone fetch pull push ls-remote",
    npm:
      "install i in ci add update up upgrade publish exec x create init audit outdated view " +
      "info login dist-tag deprecate unpublish",
    pnpm: "install i add update up upgrade publish dlx create fetch audit outdated view info",
    yarn: " install add up upgrade publish dlx create npm info",
    bun: "install i add update publish x create",
    pip: "install download wheel search",
    pip3: "install download wheel search",
    uv: "add sync lock pip tool run venv python",
    poetry: "install add update lock publish search",
    pdm: "install add update lock sync publish",
    conda: "install create update search",
    mamba: "install create update search",
    cargo: "fetch install update add search publish login vendor generate-lockfile",
    go: "get install mod",
    gem: "install update fetch push search",
    bundle: " install update add outdated",
    composer: "install require update create-project",
    dotnet: "restore add tool",
    nuget: "install restore push",
    mvn: "dependency:resolve dependency:go-offline deploy",
    apt: "install update upgrade download source",
    "apt-get": "install update upgrade dist-upgrade download source",
    brew: "install update upgrade fetch tap",
    docker: "pull push login run build search",
    podman: "pull push login run build search",
    deno: "install add cache",
    rustup: "update install toolchain target component",
    nix: "build develop shell run profile",
  }).map(([program, subcommands]) => [program, new Set(subcommands.split(" "))]),
);
