#!/usr/bin/env bash
# Installs exactly the Debian packages plate needs that are missing here.
# Everything comes from Debian's archive; nothing is downloaded otherwise,
# except the test-only clients below (npm, pinned by a lockfile).
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 ccache
  antlr4 libantlr4-runtime-dev          # grammar tool (4.7.2) and C++ runtime (4.9)
  llvm-14-dev llvm-14-tools             # ADT + libLLVMSupport; lit and FileCheck
  libfmt-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev
  libgsl-dev libcurl4-openssl-dev libyaml-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev              # fuzz targets, sanitizer CI (docs/reliability.md)
  python3-jsonschema                    # lit checks SARIF output against its schema (docs/diagnostics.md)
  librsvg2-bin                          # lit renders every picture with rsvg-convert (docs/pictures.md)
  neovim                                # its LSP client, headless, tests `plate lsp` (docs/lsp.md)
  # Opentrons' simulator (../shared/peers/opentrons) runs the OT-2 backend's
  # protocols in lit (docs/porting.md); these are what it imports.
  python3-pydantic python3-numpy python3-anyio python3-serial python3-click
  python3-usb python3-packaging
)
# The test clients run on Node.js; a machine without it gets Debian's.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "plate setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Test-only clients that no one here wrote (the official MCP TypeScript SDK,
# the VS Code language-server protocol library), pinned by
# test/clients/package-lock.json and installed once per lockfile change.
clients="$(cd "$(dirname "${BASH_SOURCE[0]}")/../test/clients" && pwd)"
if [ ! -f "$clients/node_modules/.package-lock.json" ] ||
   [ "$clients/package-lock.json" -nt "$clients/node_modules/.package-lock.json" ]; then
  echo "plate setup: installing the test clients (npm ci in test/clients)" >&2
  (cd "$clients" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
