#!/usr/bin/env bash
# Installs exactly the Debian packages plate needs that are missing here.
# Everything comes from Debian's archive; nothing is downloaded otherwise.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 ccache
  antlr4 libantlr4-runtime-dev          # grammar tool (4.7.2) and C++ runtime (4.9)
  llvm-14-dev llvm-14-tools             # ADT + libLLVMSupport; lit and FileCheck
  libfmt-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev
  libgsl-dev libcurl4-openssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev              # fuzz targets, sanitizer CI (docs/reliability.md)
  python3-jsonschema                    # lit checks SARIF output against its schema (docs/diagnostics.md)
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "plate setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
