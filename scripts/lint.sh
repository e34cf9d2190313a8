#!/usr/bin/env bash
# `npm run lint`: ESLint's rules and Prettier's format for the JavaScript,
# clang-format for the C++. `npm run format` rewrites the files instead.
set -euo pipefail
cd "$(dirname "$0")/.."
cpp=$(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find cpp tests bench -name '*.cpp' -o -name '*.hpp')
if [ "${1:-}" = "--fix" ]; then
  npx --no-install prettier --write --log-level=warn .
  clang-format -i $cpp
  npx --no-install eslint --fix .
  exit 0
fi
status=0
npx --no-install eslint --max-warnings=0 . || status=1
npx --no-install prettier --check --log-level=warn . || status=1
clang-format --dry-run -Werror $cpp || status=1
[ $status -eq 0 ] && echo "lint: eslint, prettier and clang-format clean"
exit $status
