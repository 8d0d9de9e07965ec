#!/usr/bin/env bash
# Builds the archive a user downloads to install sqsctl without a Rust toolchain, then checks it.
#
#   scripts/package.sh                 build with the `dist` profile for this machine's target
#   scripts/package.sh --check FILE    only check an archive built before
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
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() {
    echo "package.sh: error: $*" >&2
    exit 1
}

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
[[ -n "$version" ]] || die "no version in Cargo.toml"

check() {
    local archive="$1" work name root expected actual
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
    actual="$(cd "$root" && find . -type f | sed 's|^\./||' | sort)"
    if [[ "$expected" != "$actual" ]]; then
        diff <(echo "$expected") <(echo "$actual") >&2 || true
        die "$archive: the files differ from what it should hold (< expected, > found)"
    fi
    for f in completions/* README.md; do
        cmp -s "$f" "$root/$f" || die "$archive: $f differs from the committed one"
    done
    for f in man/*.1; do
        cmp -s "$f" "$root/man/man1/${f#man/}" || die "$archive: $f differs from the committed one"
    done
    [[ -x "$root/sqsctl" ]] || die "$archive: sqsctl is not executable"

    local shown
    shown="$("$root/sqsctl" --version)"
    [[ "$shown" == "sqsctl $version "* ]] || die "$archive: --version says '$shown', not version $version"
    "$root/sqsctl" --help >/dev/null || die "$archive: --help failed"
    # The pages the packed binary writes itself must be the packed ones: the archive's docs describe
    # the archive's binary.
    "$root/sqsctl" generate --out-dir "$work/generated" 2>/dev/null
    for f in man/*.1 completions/*; do
        cmp -s "$f" "$work/generated/$f" || die "$archive: the binary's own $f differs from the packed one"
    done
    echo "checked $archive: $(echo "$actual" | wc -l) files, $shown"
}

if [[ "${1:-}" == "--check" ]]; then
    [[ $# -eq 2 ]] || die "usage: scripts/package.sh --check FILE"
    check "$2"
    exit 0
fi
[[ $# -eq 0 ]] || die "usage: scripts/package.sh [--check FILE]"

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
