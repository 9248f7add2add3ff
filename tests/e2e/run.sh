#!/usr/bin/env bash
# End-to-end tests of the web app in headless Chromium: builds the binary,
# installs the test's one npm package (playwright-core, no browser
# download) and runs node's test runner. Needs /usr/bin/chromium (Debian:
# apt-get install chromium chromium-driver); .ci/run installs it.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
cargo build --release -p quadrille-cli --manifest-path "$root/Cargo.toml"
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund
node --test --test-concurrency=1 play.test.js actions.test.js screenshots.test.js
