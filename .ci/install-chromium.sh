#!/usr/bin/env bash
# Installs headless Chromium and its WebDriver (Debian packages) for the Hawtio browser test
# (HawtioBrowserTest). Idempotent: does nothing when both are already installed.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  echo "chromium and chromedriver already installed: $(chromium --version 2>/dev/null | head -1)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver
chromium --version
chromedriver --version
