#!/usr/bin/env bash
# Builds the archive a user downloads to install sqsctl without a Rust toolchain, then checks it.
#
#   scripts/package.sh                 build with the `dist` profile for this machine's target
#   scripts/package.sh --deb           the same, and a Debian package from the same binary (needs
#                                      cargo-deb: `cargo install --locked cargo-deb`)
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
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() {
    echo "package.sh: error: $*" >&2
    exit 1
}

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
[[ -n "$version" ]] || die "no version in Cargo.toml"

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
if [[ "${1:-}" == "--deb" ]]; then
    deb=true
    shift
    cargo deb --version >/dev/null 2>&1 ||
        die "--deb needs cargo-deb (cargo install --locked cargo-deb)"
fi
[[ $# -eq 0 ]] || die "usage: scripts/package.sh [--deb] | --check FILE"

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

name="sqsctl-$version-$target"
out="target/package"
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
