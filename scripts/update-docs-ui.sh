#!/usr/bin/env bash
# Vendors the interactive API reference served at /docs: Swagger UI's prebuilt files from the
# npm package swagger-ui-dist, at the pinned version, into src/api/docs/ (embedded in the binary
# by src/api/openapi.rs, so nothing is fetched at run time), with its licence and notices.
#
#   scripts/update-docs-ui.sh            # the pinned version
#   VERSION=5.36.0 scripts/update-docs-ui.sh   # another one (then pin it here)
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${VERSION:-5.35.0}"
out=src/api/docs
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack --silent "swagger-ui-dist@$VERSION" >/dev/null && tar xzf "swagger-ui-dist-$VERSION.tgz")
mkdir -p "$out"
# The bundle names a source map we do not ship; drop the line so browsers do not ask for it.
grep -v '^//# sourceMappingURL=' "$work/package/swagger-ui-bundle.js" >"$out/swagger-ui-bundle.js"
grep -v '^/\*# sourceMappingURL=' "$work/package/swagger-ui.css" >"$out/swagger-ui.css"
cp "$work/package/LICENSE" "$work/package/NOTICE" "$out/"
cp "$work/package/swagger-ui-bundle.js.LICENSE.txt" "$out/swagger-ui-bundle.js.LICENSE.txt"
echo "swagger-ui-dist $VERSION" >"$out/VERSION"
echo "vendored swagger-ui-dist $VERSION into $out"
