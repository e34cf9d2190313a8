#!/usr/bin/env bash
# Install what normlab's build and tests need, and nothing when all is there.
# Run by `npm start` and `npm test`; safe to run again. Takes well under a
# second when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: the WASM toolchain, the core's headers, Catch2, CMake,
# clang with its sanitizer and libFuzzer runtimes, Chromium for the browser tests
packages=(emscripten xtensor-dev xtl-dev catch2 cmake g++ clang libclang-rt-14-dev clang-format chromium fonts-wqy-microhei mkdocs mkdocs-material python3-sphinx furo)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  cmd="apt-get update && apt-get install -y ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "normlab bootstrap: missing Debian packages: ${missing[*]}" >&2
    echo "normlab bootstrap: install them with:" >&2
    echo "  sudo sh -c '$cmd'" >&2
    exit 1
  fi
  echo "normlab bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm dependencies, when package-lock.json is newer than what is installed.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "normlab bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
