#!/usr/bin/env bash
# Makes the sample runnable: builds the extension, bakes the default world if it is missing
# and packs it, then copies the addon (with the library where relief.gdextension names it)
# and the pack into this folder. Open the folder in Godot 4.4+ afterwards.
#
#   samples/godot/build.sh              release build for this machine
#   PROFILE=dev samples/godot/build.sh  a debug build
#   LIB=... PACK=... TOOL=...           use an already built library, pack or relief command
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
profile=${PROFILE:-release}
out=${SAMPLE_DIR:-$here}

exe=relief
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x86_64 file=librelief_godot.so ;;
    Linux-aarch64) platform=linux-arm64 file=librelief_godot.so ;;
    Darwin-*) platform=macos file=librelief_godot.dylib ;;
    MINGW*-x86_64 | MSYS*-x86_64) platform=windows-x86_64 file=relief_godot.dll exe=relief.exe ;;
    *) echo "build.sh: no library path for $(uname -s)-$(uname -m) in relief.gdextension" >&2; exit 2 ;;
esac

if [ -z "${LIB:-}" ]; then
    cargo build --manifest-path "$root/Cargo.toml" -p relief-godot --profile "$profile"
    dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
    LIB="$root/target/$dir/$file"
    strip_lib=$([ "$profile" = release ] && command -v strip || true)
fi
if [ -z "${PACK:-}" ] || [ -z "${TOOL:-}" ]; then
    cargo build --manifest-path "$root/Cargo.toml" --release --bin relief
    relief="$root/target/release/$exe"
    TOOL=${TOOL:-$relief}
fi
if [ -z "${PACK:-}" ]; then
    world=${WORLD:-${XDG_CACHE_HOME:-$HOME/.cache}/relief/default}
    "$relief" info "$world" >/dev/null 2>&1 || "$relief" bake --seed relief --out "$world"
    PACK="$out/world/default.rlpack"
    mkdir -p "$out/world"
    "$relief" pack "$world" "$PACK"
else
    mkdir -p "$out/world"
    cp "$PACK" "$out/world/default.rlpack"
fi

rm -rf "$out/addons/relief"
mkdir -p "$out/addons/relief/bin/$platform"
cp -r "$root/bindings/godot/addons/relief/." "$out/addons/relief/"
cp "$LIB" "$out/addons/relief/bin/$platform/$file"
# The editor plugin's dock and inspector run the relief command from here.
cp "$TOOL" "$out/addons/relief/bin/$platform/$exe"
# The release profile keeps line tables for backtraces; the sample ships the library stripped
# (sizes in bindings/godot/README.md).
if [ -n "${strip_lib:-}" ] && [ "$platform" != windows-x86_64 ]; then
    "$strip_lib" "$out/addons/relief/bin/$platform/$file"
fi
echo "sample ready in $out: addons/relief ($platform, with the relief command), world/default.rlpack"
