#!/usr/bin/env bash
# The gateway image's base (its OS: a minimal Debian 12 with glibc, libstdc++, zlib and bash) as a `docker save` tar,
# built from Debian's packages for a machine that reaches no container registry (CI here). Where a registry is
# reachable, the build takes debian:bookworm-slim instead (gateway.image.base in gateway-app/pom.xml).
#
#   bash docker/base-image.sh        (as root: debootstrap and chroot need it)
#
# prints the tar's path, to pass as `mvn package -Pimage -Dgateway.image.base=tar://<path>`. Debian 12 because the
# image's Java runtime is the building JDK, jlinked (Debian 12's OpenJDK 17: glibc 2.36). Kept in a cache outside the
# work tree and rebuilt only when missing or older than GATEWAY_BASE_MAX_AGE_DAYS (7: to pick up security updates).
set -euo pipefail

cache="${GATEWAY_IMAGE_CACHE:-${HOME}/.cache/legacy-gateway}"
suite=bookworm
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
tar="${cache}/base-debian-${suite}-minbase.tar"
max_age_days="${GATEWAY_BASE_MAX_AGE_DAYS:-7}"

if [ -s "$tar" ] && [ -n "$(find "$tar" -mtime "-${max_age_days}")" ]; then
  echo "$tar"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "base-image.sh: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || {
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
}

mkdir -p "$cache"
work="$(mktemp -d "${cache}/base.XXXXXX")"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

# minbase: the Essential and required packages (libc6, libstdc++6, zlib1g, bash, coreutils, ...), nothing else
debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >&2
# the security and point-release updates that the registry's debian:bookworm-slim carries too
cat > "$rootfs/etc/apt/sources.list" <<EOF
deb ${mirror} ${suite} main
deb ${mirror} ${suite}-updates main
deb ${security} ${suite}-security main
EOF
chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c 'apt-get update -qq && apt-get upgrade -y && apt-get clean' >&2
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/*.log "$rootfs"/tmp/* \
  "$rootfs"/dev/* "$rootfs"/proc/* "$rootfs"/sys/*

# one layer; numeric owners, as the files are in the rootfs
layer="$work/layer.tar"
tar --numeric-owner --xattrs -C "$rootfs" -cf "$layer" .
diff_id="sha256:$(sha256sum "$layer" | cut -d' ' -f1)"
created="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
cat > "$work/config.json" <<EOF
{"architecture":"$(dpkg --print-architecture)","os":"linux","created":"${created}",
 "config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Cmd":["bash"]},
 "rootfs":{"type":"layers","diff_ids":["${diff_id}"]},
 "history":[{"created":"${created}","created_by":"docker/base-image.sh: debootstrap --variant=minbase ${suite}"}]}
EOF
cat > "$work/manifest.json" <<EOF
[{"Config":"config.json","RepoTags":["legacy-gateway-base:${suite}-minbase"],"Layers":["layer.tar"]}]
EOF
tar -C "$work" -cf "$tar.part" manifest.json config.json layer.tar
mv "$tar.part" "$tar"
echo "$tar"
