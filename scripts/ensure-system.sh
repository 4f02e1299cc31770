#!/usr/bin/env bash
# Make sure the system tools a make target needs are present; install them with apt-get if not.
#   scripts/ensure-system.sh python   -> python3 >= 3.11 with venv
#   scripts/ensure-system.sh node     -> node >= 18 with npm
#   scripts/ensure-system.sh mosquitto -> the MQTT broker (/usr/sbin/mosquitto) the logger's MQTT test starts
#   scripts/ensure-system.sh openssl  -> openssl, which makes the venue's own CA and broker certificate (--tls)
#   scripts/ensure-system.sh kicad-symbols -> KiCad's symbol library (files, no command) for the SKiDL netlists
#   scripts/ensure-system.sh postgresql -> PostgreSQL's server binaries (initdb, pg_ctl, postgres) the tests'
#                                          throwaway servers run (tests/host/pg_server.py)
#   scripts/ensure-system.sh gnugo    -> GNU Go (/usr/games/gnugo), the engine the board plays against by default
#   scripts/ensure-system.sh PKG...   -> any other Debian packages (by command name = package name)
set -euo pipefail

apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: missing $*, and no apt-get to install it: install it and run make again" >&2
    exit 1
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "error: missing $*; run as root or install it: apt-get install $*" >&2; exit 1; fi
  fi
  echo "Installing $* with apt-get ..." >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}

for want in "$@"; do
  case "$want" in
    python)
      if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        apt_install python3 python3-venv
      fi
      python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
      ;;
    node)
      major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
      if [ "$major" -lt 18 ] || ! command -v npm >/dev/null 2>&1; then
        apt_install nodejs npm
      fi
      ;;
    mosquitto)
      # The broker lives in /usr/sbin, which a normal user's PATH may lack.
      [ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1 || apt_install mosquitto
      ;;
    postgresql)
      # The binaries live in /usr/lib/postgresql/<version>/bin, off PATH. The tests initdb their own
      # cluster on a free port; the cluster Debian's package creates (and may start on 5432) is never used.
      compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null 2>&1 \
        || apt_install postgresql
      ;;
    kicad-symbols)
      [ -f /usr/share/kicad/symbols/74xx.kicad_sym ] || apt_install kicad-symbols
      ;;
    gnugo)
      # GNU Go, the board's default opponent (host_tools/gtp/engine.py): in /usr/games, off PATH.
      [ -x /usr/games/gnugo ] || apt_install gnugo
      ;;
    *)
      command -v "$want" >/dev/null 2>&1 || apt_install "$want"
      ;;
  esac
done
