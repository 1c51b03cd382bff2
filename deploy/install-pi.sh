#!/usr/bin/env bash
# Install Table Companion as a service on Raspberry Pi OS (run from the checkout, as root:
# `sudo make install-pi`). Safe to run twice: every step checks what is already there.
#
#  1. apt packages: Tesseract with English and Russian, picamera2, lgpio, venv support, fonts
#  2. a venv in the checkout (.venv) WITH the system site packages, so apt's picamera2 imports
#  3. the package with its Pi extras
#  4. the service user (groups dialout, video, gpio), the data folder /var/lib/companion
#  5. the button box's udev rule (hardware/99-table-companion.rules -> /dev/buttonbox)
#  6. /etc/companion/companion.toml (kept if it exists) and the systemd unit, enabled at boot
#  7. `companion doctor` checks every part
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SERVICE_USER="${COMPANION_USER:-${SUDO_USER:-companion}}"
[ "$SERVICE_USER" = root ] && SERVICE_USER=companion
if [ "$(id -u)" != 0 ]; then
  echo "run as root: sudo make install-pi" >&2
  exit 1
fi
if ! grep -qs "Raspberry Pi" /proc/device-tree/model && [ -z "${COMPANION_FORCE:-}" ]; then
  echo "this is not a Raspberry Pi; set COMPANION_FORCE=1 to install anyway" >&2
  exit 1
fi
RULE="$ROOT/hardware/99-table-companion.rules"
if [ ! -f "$RULE" ]; then
  echo "missing $RULE (the button box's udev rule, from the hardware/ folder)" >&2
  exit 1
fi

echo "== 1. system packages"
"$ROOT/scripts/ensure-system-deps.sh" tesseract-ocr tesseract-ocr-eng tesseract-ocr-rus \
  python3-venv python3-picamera2 python3-lgpio fonts-dejavu-core fonts-liberation

echo "== 2-3. virtualenv with system site packages ($ROOT/.venv)"
if [ -x "$ROOT/.venv/bin/python" ] && ! grep -qs "include-system-site-packages = true" "$ROOT/.venv/pyvenv.cfg"; then
  echo "   existing .venv does not see the system packages (picamera2): recreating it"
  rm -rf "$ROOT/.venv"
fi
[ -x "$ROOT/.venv/bin/python" ] || python3 -m venv --system-site-packages "$ROOT/.venv"
"$ROOT/.venv/bin/python" -m pip install -q --upgrade pip
"$ROOT/.venv/bin/python" -m pip install -q -e "$ROOT[pi]"

echo "== 4. service user $SERVICE_USER and /var/lib/companion"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
  useradd --system --create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for g in dialout video gpio; do
  getent group "$g" >/dev/null && usermod -aG "$g" "$SERVICE_USER"
done
install -d -o "$SERVICE_USER" -m 0750 /var/lib/companion

echo "== 5. udev rule -> /dev/buttonbox"
install -m 0644 "$RULE" /etc/udev/rules.d/99-table-companion.rules
udevadm control --reload
udevadm trigger --subsystem-match=tty || true

echo "== 6. settings and systemd service"
install -d /etc/companion
[ -f /etc/companion/companion.toml ] || install -m 0644 "$ROOT/deploy/companion.toml" /etc/companion/companion.toml
sed -e "s#@ROOT@#$ROOT#g" -e "s#@USER@#$SERVICE_USER#g" "$ROOT/deploy/companion.service" \
  > /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion.service
systemctl restart companion.service

echo "== 7. companion doctor (the service holds the dashboard port, so that line says 'in use')"
sleep 2
sudo -u "$SERVICE_USER" COMPANION_DATA=/var/lib/companion "$ROOT/.venv/bin/companion" doctor \
  --config /etc/companion/companion.toml || true
echo
echo "Installed. Logs: journalctl -u companion -f   Status: systemctl status companion"
