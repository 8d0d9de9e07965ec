#!/usr/bin/env bash
# Builds the archive a user downloads to install sqsctl without a Rust toolchain, then checks it.
#
#   scripts/package.sh                 build with the `dist` profile for this machine's target
#   scripts/package.sh --deb           the same, and a Debian package from the same binary (needs
#                                      cargo-deb: `cargo install --locked cargo-deb`)
#   scripts/package.sh --image         build the same binary, then the container image of `sqsctl local`
#                                      from it (no archive); combine with --deb for all three
#   scripts/package.sh --check FILE    only check an archive (.tar.gz) or a package (.deb) built before
#
# Environment: PROFILE (default dist; `release` or `dev` build faster, for a quick check of the
# layout), TARGET (a Rust target triple, default this machine's; cross targets need their linker and
# the target's standard library installed).
#
# The archive, target/package/sqsctl-VERSION-TARGET.tar.gz, holds one folder of the same name:
#
#   sqsctl                 the binary (stripped)
#   completions/           bash, zsh, fish, PowerShell and elvish scripts, as committed
#   man/man1/*.1           one page per command, as committed
#   README.md, LICENSE-MIT, LICENSE-APACHE
#
# and a .sha256 file beside it. The check lists the archive against the committed completions and
# man pages, compares them byte for byte, and runs the binary it holds (`--version` must name this
# version, `--help` must work, and the man pages and completions it generates must equal the packed
# ones).
#
# The Debian package, target/package/sqsctl_VERSION-1_ARCH.deb, is what `[package.metadata.deb]` in
# Cargo.toml describes: the binary in /usr/bin, the man pages (compressed), the bash, zsh and fish
# completions where those shells look on Debian, and the README and licences. Its check extracts it
# and compares the same way, and runs the binary it holds.
#
# The image, sqsctl-local:VERSION and sqsctl-local:latest in the local image store, is an OCI image
# built FROM scratch: the binary as /usr/local/bin/sqsctl, the shared libraries `ldd` lists for it,
# an /etc/passwd and /etc/group naming the user sqsctl (uid and gid 10001) it runs as, and /data,
# owned by that user, as a volume. Its entry point is `sqsctl local`, bound to 0.0.0.0:4566 with
# localhost in queue URLs (SQSCTL_LOCAL_BIND, SQSCTL_LOCAL_HOSTNAME); it keeps nothing on disk
# unless SQSCTL_LOCAL_DATA_DIR=/data is set; its HEALTHCHECK runs `sqsctl local --health-check`.
# It is built with podman because podman needs no daemon (CI machines have none) and is in
# Debian; on a machine with buildah only, `buildah bud` builds the same Containerfile. The image is
# written in Docker's format (--format docker): the OCI format has no HEALTHCHECK and would drop
# it. Its check reads the image's configuration back; scripts/image_check.sh runs it.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() {
    echo "package.sh: error: $*" >&2
    exit 1
}

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
[[ -n "$version" ]] || die "no version in Cargo.toml"
# Where the source is, for the image's label: Cargo.toml's repository, when it names one.
source="$(sed -n 's/^repository = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"

# Fails unless the files under ROOT are exactly EXPECTED (sorted paths, one a line), showing the
# difference; LABEL names the package in the error.
files_are() {
    local root="$1" expected="$2" label="$3" actual
    actual="$(cd "$root" && find . -type f | sed 's|^\./||' | sort)"
    if [[ "$expected" != "$actual" ]]; then
        diff <(echo "$expected") <(echo "$actual") >&2 || true
        die "$label: the files differ from what it should hold (< expected, > found)"
    fi
}

# Prints the packed binary's --version, failing unless it names this version.
version_of() {
    local binary="$1" label="$2" shown
    shown="$("$binary" --version)"
    [[ "$shown" == "sqsctl $version "* ]] || die "$label: --version says '$shown', not version $version"
    echo "$shown"
}

check() {
    local archive="$1" work name root expected
    [[ -f "$archive" ]] || die "$archive not found"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' RETURN
    tar -C "$work" -xzf "$archive"
    name="$(basename "$archive" .tar.gz)"
    root="$work/$name"
    [[ -d "$root" ]] || die "$archive does not hold the folder $name/"

    expected="$(
        {
            echo sqsctl
            echo README.md
            echo LICENSE-MIT
            echo LICENSE-APACHE
            for f in completions/*; do echo "$f"; done
            for f in man/*.1; do echo "man/man1/${f#man/}"; done
        } | sort
    )"
    files_are "$root" "$expected" "$archive"
    for f in completions/* README.md; do
        cmp -s "$f" "$root/$f" || die "$archive: $f differs from the committed one"
    done
    for f in man/*.1; do
        cmp -s "$f" "$root/man/man1/${f#man/}" || die "$archive: $f differs from the committed one"
    done
    [[ -x "$root/sqsctl" ]] || die "$archive: sqsctl is not executable"

    local shown
    shown="$(version_of "$root/sqsctl" "$archive")"
    "$root/sqsctl" --help >/dev/null || die "$archive: --help failed"
    # The pages the packed binary writes itself must be the packed ones: the archive's docs describe
    # the archive's binary.
    "$root/sqsctl" generate --out-dir "$work/generated" 2>/dev/null
    for f in man/*.1 completions/*; do
        cmp -s "$f" "$work/generated/$f" || die "$archive: the binary's own $f differs from the packed one"
    done
    echo "checked $archive: $(echo "$expected" | wc -l) files, $shown"
}

# Checks a Debian package: its control fields, the files it installs against the committed ones, and
# the binary it holds.
# What the Debian package installs from the repository, as `[package.metadata.deb]` lists it:
# SOURCE:DESTINATION (besides the binary, the man pages and cargo-deb's own copyright file).
DEB_FILES=(
    completions/sqsctl.bash:usr/share/bash-completion/completions/sqsctl
    completions/_sqsctl:usr/share/zsh/vendor-completions/_sqsctl
    completions/sqsctl.fish:usr/share/fish/vendor_completions.d/sqsctl.fish
    README.md:usr/share/doc/sqsctl/README.md
    LICENSE-MIT:usr/share/doc/sqsctl/LICENSE-MIT
    LICENSE-APACHE:usr/share/doc/sqsctl/LICENSE-APACHE
)

check_deb() {
    local deb="$1" work root field depends expected shown pair
    [[ -f "$deb" ]] || die "$deb not found"
    command -v dpkg-deb >/dev/null || die "dpkg-deb is needed to check $deb"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' RETURN
    [[ "$(dpkg-deb --field "$deb" Package)" == sqsctl ]] || die "$deb: its Package field is not sqsctl"
    field="$(dpkg-deb --field "$deb" Version)"
    [[ "$field" == "$version-"* ]] || die "$deb: its Version field is '$field', not version $version"
    depends="$(dpkg-deb --field "$deb" Depends)"
    [[ "$depends" == *libc6* ]] || die "$deb: its Depends field ('$depends') does not name libc6"
    root="$work/root"
    dpkg-deb -x "$deb" "$root"
    expected="$(
        {
            echo usr/bin/sqsctl
            echo usr/share/doc/sqsctl/copyright
            for pair in "${DEB_FILES[@]}"; do echo "${pair#*:}"; done
            for f in man/*.1; do echo "usr/share/man/man1/${f#man/}.gz"; done
        } | sort
    )"
    files_are "$root" "$expected" "$deb"
    for pair in "${DEB_FILES[@]}"; do
        cmp -s "${pair%%:*}" "$root/${pair#*:}" || die "$deb: ${pair#*:} differs from the committed ${pair%%:*}"
    done
    for f in man/*.1; do
        gzip -dc "$root/usr/share/man/man1/${f#man/}.gz" | cmp -s "$f" - ||
            die "$deb: $f differs from the committed one"
    done
    shown="$(version_of "$root/usr/bin/sqsctl" "$deb")"
    echo "checked $deb: $(echo "$expected" | wc -l) files, $shown, depends on $depends"
}

if [[ "${1:-}" == "--check" ]]; then
    [[ $# -eq 2 ]] || die "usage: scripts/package.sh --check FILE"
    case "$2" in
    *.deb) check_deb "$2" ;;
    *) check "$2" ;;
    esac
    exit 0
fi
deb=false
image=false
for arg in "$@"; do
    case "$arg" in
    --deb) deb=true ;;
    --image) image=true ;;
    *) die "usage: scripts/package.sh [--deb] [--image] | --check FILE" ;;
    esac
done
if $deb; then
    cargo deb --version >/dev/null 2>&1 ||
        die "--deb needs cargo-deb (cargo install --locked cargo-deb)"
fi
if $image; then
    if command -v podman >/dev/null; then
        image_builder=(podman build)
    elif command -v buildah >/dev/null; then
        image_builder=(buildah bud)
    else
        die "--image needs podman (or buildah): apt-get install podman"
    fi
    command -v ldd >/dev/null || die "--image needs ldd to find the binary's shared libraries"
fi

profile="${PROFILE:-dist}"
# Cargo's folder for a profile: `dev` builds into debug/.
profile_dir="$profile"
[[ "$profile" == dev ]] && profile_dir=debug
build=(cargo build --locked --profile "$profile" --bin sqsctl)
if [[ -n "${TARGET:-}" ]]; then
    target="$TARGET"
    build+=(--target "$target")
    binary="target/$target/$profile_dir/sqsctl"
else
    target="$(rustc -vV | sed -n 's/^host: //p')"
    [[ -n "$target" ]] || die "could not tell this machine's target (rustc -vV)"
    binary="target/$profile_dir/sqsctl"
fi

start=$SECONDS
"${build[@]}"
echo "built sqsctl ($profile, $target) in $((SECONDS - start)) s"

out="target/package"

# The image's user and the port it listens on.
IMAGE_UID=10001
IMAGE_PORT=4566

# Builds the image from the binary: a root file system staged under target/package, and a
# Containerfile beside it.
build_image() {
    local stage="$out/image" root lib revision
    rm -rf "$stage"
    mkdir -p "$stage/root/usr/local/bin" "$stage/root/etc" "$stage/data"
    install -m 755 "$binary" "$stage/root/usr/local/bin/sqsctl"
    # Every library the dynamic loader needs, the loader itself included, at the path it has here
    # (the loader's own search path finds them there).
    for lib in $(ldd "$binary" | grep -o '/[^ ]*'); do
        cp -L --parents "$lib" "$stage/root/"
    done
    printf 'root:x:0:0:root:/:/sbin/nologin\nsqsctl:x:%d:%d:sqsctl:/data:/sbin/nologin\n' \
        "$IMAGE_UID" "$IMAGE_UID" >"$stage/root/etc/passwd"
    printf 'root:x:0:\nsqsctl:x:%d:\n' "$IMAGE_UID" >"$stage/root/etc/group"
    revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
    local source_label=""
    [[ -n "$source" ]] && source_label="org.opencontainers.image.source=\"$source\" "
    cat >"$stage/Containerfile" <<CONTAINERFILE
FROM scratch
COPY root/ /
COPY --chown=$IMAGE_UID:$IMAGE_UID data/ /data/
USER $IMAGE_UID:$IMAGE_UID
ENV SQSCTL_LOCAL_BIND=0.0.0.0:$IMAGE_PORT SQSCTL_LOCAL_HOSTNAME=localhost
EXPOSE $IMAGE_PORT
VOLUME ["/data"]
HEALTHCHECK --interval=5s --timeout=3s --start-period=1s --retries=3 CMD ["/usr/local/bin/sqsctl", "local", "--health-check"]
LABEL org.opencontainers.image.title="sqsctl-local" \\
      org.opencontainers.image.description="sqsctl local: an SQS-compatible server" \\
      org.opencontainers.image.version="$version" \\
      org.opencontainers.image.revision="$revision" \\
      $source_label\\
      org.opencontainers.image.licenses="MIT OR Apache-2.0"
ENTRYPOINT ["/usr/local/bin/sqsctl", "local"]
CONTAINERFILE
    local start=$SECONDS
    "${image_builder[@]}" --quiet --format docker --file "$stage/Containerfile" \
        --tag "sqsctl-local:$version" --tag sqsctl-local:latest "$stage" >/dev/null
    echo "built image sqsctl-local:$version (and :latest) with ${image_builder[*]} in $((SECONDS - start)) s"
    check_image "sqsctl-local:$version"
}

# Reads the image's configuration back: what runs, as whom, where, and its health check.
check_image() {
    local image="$1" engine=podman config size expected
    command -v podman >/dev/null || engine=buildah
    # podman keeps the health check beside the rest of the configuration, buildah inside it.
    config="$(podman image inspect --format '{{json .Config}} {{json .HealthCheck}}' "$image" 2>/dev/null ||
        buildah inspect --format '{{json .Docker.Config}}' "$image")"
    for expected in '"User":"10001:10001"' '"Entrypoint":["/usr/local/bin/sqsctl","local"]' \
        "\"$IMAGE_PORT/tcp\":{}" '"/data":{}' "SQSCTL_LOCAL_BIND=0.0.0.0:$IMAGE_PORT" \
        '{"Test":["CMD","/usr/local/bin/sqsctl","local","--health-check"]'; do
        [[ "$config" == *"$expected"* ]] || die "$image: its configuration lacks $expected: $config"
    done
    size="$($engine image inspect --format '{{.Size}}' "$image" 2>/dev/null || echo unknown)"
    echo "checked $image: $size bytes, user 10001, entry point sqsctl local, health check, volume /data"
}

if $image && ! $deb; then
    build_image
    exit 0
fi

name="sqsctl-$version-$target"
stage="$out/$name"
rm -rf "$stage"
mkdir -p "$stage/completions" "$stage/man/man1"
install -m 755 "$binary" "$stage/sqsctl"
install -m 644 README.md LICENSE-MIT LICENSE-APACHE "$stage/"
install -m 644 completions/* "$stage/completions/"
install -m 644 man/*.1 "$stage/man/man1/"
archive="$out/$name.tar.gz"
# Sorted names, fixed owner and times: the same tree gives the same archive.
tar -C "$out" --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' -cf - "$name" | gzip -n -9 >"$archive"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
rm -rf "$stage"
echo "wrote $archive ($(stat -c %s "$archive") bytes) and its .sha256"
check "$archive"

if $deb; then
    # The binary built above, packaged as it is: already stripped by the profile.
    package=(cargo deb --no-build --no-strip --profile "$profile" --output "$out/")
    [[ -n "${TARGET:-}" ]] && package+=(--target "$target")
    start=$SECONDS
    if ! log="$("${package[@]}" 2>&1)"; then
        echo "$log" >&2
        die "cargo deb failed"
    fi
    written="$(echo "$log" | tail -n 1)"
    [[ "$written" == *.deb && -f "$written" ]] || die "cargo deb did not write a package: $log"
    echo "wrote $written ($(stat -c %s "$written") bytes) in $((SECONDS - start)) s"
    check_deb "$written"
fi

if $image; then
    build_image
fi
