#!/usr/bin/env bash
# Builds the xzatoma-watcher image (deploy/watcher/Dockerfile) with buildah on a machine that
# can reach Debian's package mirror and the npm registry but no image registry: the Node base
# image the Dockerfile names is made here instead of pulled. The Dockerfile's build stage then
# installs, builds and deploys the app inside a container (or, with BUILD_STAGE=0, the app is
# built and deployed on this machine, as a CI that built it already would, and the build stage
# is skipped). Then the image is checked: `xzatoma-watcher --help` and `--version` run in it as
# uid 10001, and bubblewrap is asked to make the sandbox's namespaces inside it.
#
#   bash deploy/watcher/build-image.sh            # builds xzatoma-watcher:<version>, checks it
#   BUILD_STAGE=0 bash deploy/watcher/build-image.sh   # the app built on this machine
#   WORK=/var/tmp/xzw bash deploy/watcher/build-image.sh
#
# Needs: root (debootstrap, buildah's storage), debootstrap, buildah, pnpm and Node >= 22.19
# (source tools/toolchain/env.sh). Environment:
#   WORK          scratch directory (default .cache/watcher-image; the base's root file system
#                 is kept there, so a second run skips debootstrap)
#   MIRROR        Debian mirror (default: the first one this machine's apt sources name)
#   SUITE         Debian release of the base (default bookworm, as node:24-bookworm-slim)
#   TAG           image name (default xzatoma-watcher:<apps/watcher version>)
#   BUILD_STAGE   1 (default): the Dockerfile's build stage builds the app in a container;
#                 0: the app is built and deployed here, and the Dockerfile's copy from
#                 the build stage takes it from an image of that directory instead
#   BUILD_APP     with BUILD_STAGE=0: 0 to use the apps' builds as they are (default 1)
#   CA_BUNDLE     a CA bundle the build stage's npm and pnpm trust besides the image's own
#                 (default: $NODE_EXTRA_CA_CERTS when it names a file, else this machine's
#                 /etc/ssl/certs/ca-certificates.crt; empty for none), for a network whose
#                 TLS a proxy re-signs; passed as the build secret `build-ca`, which only the
#                 build stage's steps see
# Steps (each printed as it runs): 1. a minimal Debian root file system with debootstrap, with
# this machine's Node binary in /usr/local/bin and npm beside it, committed as
# localhost/xzatoma-node:base; 2. with BUILD_STAGE=0 only: `nx run xzatoma-watcher:build` and
# `pnpm --filter @xzatoma/watcher-service deploy --prod` into WORK/app, committed as an image
# holding /out; 3. `buildah bud` of the Dockerfile with NODE_IMAGE set to the base (with
# BUILD_STAGE=0, its copy from the build stage taken from the app's image) and the host's
# network (its apt-get reaches the mirror, its npm the registry); 4. the checks.
set -euo pipefail

step() { printf '\n== %s\n' "$*" >&2; }
# Commits container $1 as image $2 and removes the image $2 named before, which every commit
# would otherwise leave behind, untagged (kept if another image still uses it).
commit_replacing() {
  local before after
  before=$(buildah images --quiet --no-trunc "$2" 2>/dev/null || true)
  after=$(buildah commit --quiet "$1" "$2")
  if [ -n "$before" ] && [ "${before#sha256:}" != "${after#sha256:}" ]; then
    buildah rmi "$before" >/dev/null 2>&1 || true
  fi
}
die() { printf 'build-image: %s\n' "$*" >&2; exit 1; }

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="${WORK:-$ROOT/.cache/watcher-image}"
# The mirror this machine's apt uses (deb822 sources first, then the one-line format); a
# sources file that is not there is not an error.
host_mirror() {
  awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
  awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true
}
MIRROR="${MIRROR:-$(host_mirror | awk 'NR == 1')}"
[ -n "$MIRROR" ] || die "no Debian mirror: set MIRROR (this machine's apt sources name none)"
SUITE="${SUITE:-bookworm}"
VERSION="$(node -p "require('$ROOT/apps/watcher/package.json').version")"
TAG="${TAG:-xzatoma-watcher:$VERSION}"
BASE_IMAGE="localhost/xzatoma-node:base"
APP_IMAGE="localhost/xzatoma-watcher-app:$VERSION"
BUILD_STAGE="${BUILD_STAGE:-1}"
# The CAs this machine trusts: where a proxy re-signs TLS, its CA is among them.
if [ -z "${CA_BUNDLE+set}" ]; then
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    CA_BUNDLE="$NODE_EXTRA_CA_CERTS"
  elif [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
  else
    CA_BUNDLE=
  fi
fi
[ -z "$CA_BUNDLE" ] || [ -f "$CA_BUNDLE" ] || die "CA_BUNDLE: $CA_BUNDLE is not a file"

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and buildah's storage need it)"
for tool in debootstrap buildah pnpm node; do
  command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install $tool; source tools/toolchain/env.sh for node and pnpm)"
done
node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' \
  || die "Node $(node --version) is older than 22.19: source tools/toolchain/env.sh"
mkdir -p "$WORK"

step "1. base: $SUITE (minbase) from $MIRROR, Node $(node --version) and npm $(npm --version) from this machine"
ROOTFS="$WORK/rootfs-$SUITE"
if [ ! -x "$ROOTFS/usr/bin/bwrap" ]; then
  rm -rf "$ROOTFS"
  # The packages the Dockerfile's last stage installs, so its apt-get finds them in place.
  debootstrap --variant=minbase --include=bubblewrap,ca-certificates,git,tini \
    "$SUITE" "$ROOTFS" "$MIRROR"
fi
install -m 0755 "$(command -v node)" "$ROOTFS/usr/local/bin/node"
# npm, as the official Node images have it (the build stage installs pnpm with it): this
# machine's npm package, its bin linked as a global install links it.
NPM_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
[ -f "$NPM_HOME/bin/npm-cli.js" ] || die "npm's package is not found beside $(command -v npm)"
rm -rf "$ROOTFS/usr/local/lib/node_modules/npm"
mkdir -p "$ROOTFS/usr/local/lib/node_modules"
cp -a "$NPM_HOME" "$ROOTFS/usr/local/lib/node_modules/npm"
ln -sfn ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -sfn ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
# The Dockerfile's apt-get reads the mirror from here.
printf 'deb %s %s main\n' "$MIRROR" "$SUITE" >"$ROOTFS/etc/apt/sources.list"
base=$(buildah from scratch)
trap 'buildah rm "$base" >/dev/null 2>&1 || true' EXIT
mount=$(buildah mount "$base")
cp -a "$ROOTFS/." "$mount/"
buildah umount "$base" >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --cmd node "$base"
commit_replacing "$base" "$BASE_IMAGE"
buildah rm "$base" >/dev/null
trap - EXIT
probe=$(buildah from "$BASE_IMAGE")
buildah run --isolation chroot "$probe" -- sh -c 'echo "node $(node --version), npm $(npm --version)"' >&2
buildah rm "$probe" >/dev/null

cd "$ROOT"
bud_args=(--build-arg NODE_IMAGE="$BASE_IMAGE")
dockerfile=deploy/watcher/Dockerfile
if [ "$BUILD_STAGE" = 0 ]; then
  step "2. the app: built and deployed on this machine into $WORK/app"
  if [ "${BUILD_APP:-1}" != 0 ]; then
    npx nx run xzatoma-watcher:build
  fi
  rm -rf "$WORK/app"
  pnpm --filter @xzatoma/watcher-service deploy --prod --offline "$WORK/app"
  app=$(buildah from scratch)
  buildah copy --quiet "$app" "$WORK/app" /out >/dev/null
  commit_replacing "$app" "$APP_IMAGE"
  buildah rm "$app" >/dev/null
  # The Dockerfile with its one copy from the build stage taken from that image instead.
  sed "s#^COPY --from=build /out #COPY --from=$APP_IMAGE /out #" deploy/watcher/Dockerfile \
    >"$WORK/Dockerfile.prebuilt"
  grep -q "^COPY --from=$APP_IMAGE /out " "$WORK/Dockerfile.prebuilt" \
    || die "deploy/watcher/Dockerfile has no 'COPY --from=build /out' line to point at $APP_IMAGE"
  dockerfile="$WORK/Dockerfile.prebuilt"
else
  step "2. the app: built in the Dockerfile's build stage (step 3)"
  if [ -n "$CA_BUNDLE" ]; then
    bud_args+=(--secret "id=build-ca,src=$CA_BUNDLE"
      --build-arg NODE_EXTRA_CA_CERTS=/run/secrets/build-ca)
  fi
fi

step "3. buildah bud -f $dockerfile -t $TAG"
buildah bud --format docker --network host --isolation chroot \
  --ignorefile deploy/watcher/Dockerfile.dockerignore "${bud_args[@]}" \
  -f "$dockerfile" -t "$TAG" .
# The working containers buildah bud left of the two stages it started from: removed.
for image in "$BASE_IMAGE" "$APP_IMAGE"; do
  for container in $(buildah containers --quiet --filter ancestor="$image"); do
    buildah rm "$container" >/dev/null
  done
done

step "4. checks in a container of $TAG"
# buildah's chroot isolation cannot be the container here: Linux refuses a chrooted process a
# new user namespace, so bubblewrap could never start in it; its OCI isolation (crun) refuses
# a host whose cgroups are in hybrid mode. bubblewrap itself runs the image's file system
# instead: its own namespaces, pivot_root, uid 10001 as the Dockerfile's USER.
check=$(buildah from "$TAG")
trap 'buildah umount "$check" >/dev/null 2>&1; buildah rm "$check" >/dev/null 2>&1 || true' EXIT
rootfs=$(buildah mount "$check")
in_image() {
  bwrap --unshare-all --unshare-user --uid 10001 --gid 10001 --die-with-parent \
    --ro-bind "$rootfs" / --proc /proc --dev /dev --tmpfs /tmp \
    --setenv PATH /usr/local/bin:/usr/bin:/bin --setenv HOME /var/lib/xzatoma-watcher \
    --chdir / /bin/sh -c "$1"
}
in_image 'echo "uid $(id -u)"'
in_image 'node /opt/xzatoma-watcher/bin/xzatoma-watcher.js --version'
in_image 'node /opt/xzatoma-watcher/bin/xzatoma-watcher.js --help' | head -5
if in_image 'bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev true'; then
  echo "bubblewrap in the image: made its namespaces (user, pid, network, mount, ipc, uts)" >&2
else
  echo "bubblewrap in the image: could not make its namespaces" >&2
fi
if in_image 'bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev --proc /proc true'; then
  echo "bubblewrap in the image: mounted its own /proc too, as the sandbox does" >&2
else
  echo "bubblewrap in the image: could not mount its own /proc (the sandbox needs it; see docs/how-to/deploy-the-watcher.md)" >&2
fi
echo "built $TAG" >&2
