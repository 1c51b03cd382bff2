#!/usr/bin/env bash
# Install missing Debian / Raspberry Pi OS packages, or say exactly how to.
# Usage: scripts/ensure-system-deps.sh PACKAGE...
# Safe to run twice: installed packages are skipped, and apt-get is not called when none is missing.
set -euo pipefail
if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "This is not a Debian-based system: install these yourself: $*" >&2
  exit 1
fi
missing=()
for p in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Run this once, then run make again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing system packages: ${missing[*]} (apt's output: ${TMPDIR:-/tmp}/companion-apt.log)"
log="${TMPDIR:-/tmp}/companion-apt.log"
if ! { "${SUDO[@]}" apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 25 "$log" >&2
  echo "Installing ${missing[*]} failed: the last lines of apt's output are above, all of it is in $log." >&2
  exit 1
fi
echo "Installed: ${missing[*]}"
