#!/usr/bin/env bash
# Set up docgen on a fresh Debian machine: the system libraries and fonts WeasyPrint
# needs, then a virtual environment in .venv with docgen and its test tools.
# Idempotent: a second run installs nothing that is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pango renders text; libharfbuzz-subset0 subsets fonts fast and deterministically
# (without it PDFs are ~4.5x slower and differ between runs); the fonts cover Latin
# (Liberation, metric twins of Times New Roman and Arial), Greek and Cyrillic (DejaVu)
# and CJK (WenQuanYi Micro Hei: Chinese and Korean); Noto (fonts-noto-core) covers the
# other scripts of the language-access taglines (Bengali, Arabic and Urdu, Hebrew for
# Yiddish: LAW.md § 13); poppler-utils gives pdftotext for reading PDFs by eye.
SYSTEM_PACKAGES=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fontconfig
                 fonts-liberation2 fonts-dejavu-core fonts-dejavu-extra fonts-wqy-microhei
                 fonts-noto-core)
# `setup.sh --test` adds what the tests drive for real: a PostgreSQL 15 server (the
# register's shared backend; tests start their own with initdb/pg_ctl), Debian's Chromium
# and its driver (browser tests through Playwright) and LibreOffice Writer (DOCX pages as
# Word users see them), and what docs/deploy.md runs: Caddy (the HTTPS proxy in front of the
# desk, tested on loopback) and systemd's systemd-analyze (checks the unit files); and the
# conformance gate's validators that are not Python packages (tests/helpers/validators.py):
# poppler-utils (pdfsig reads the signatures; pdftotext reads a PDF by eye) and qpdf.
if [ "${1:-}" = "--test" ]; then
  SYSTEM_PACKAGES+=(postgresql-15 chromium chromium-driver libreoffice-writer-nogui caddy systemd
                    poppler-utils qpdf)
fi

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

python=${PYTHON:-python3}
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "setup: docgen needs Python 3.11 or newer" >&2; exit 1; }
[ -x .venv/bin/python ] || "$python" -m venv .venv
# Every dependency, the test tools' and the build backend's too, at the version and hash
# requirements.lock names (made by `make lock`): a fresh machine today and next month
# installs what CI passed with, never whatever was published last night. docgen itself is
# then installed editable on top, with no dependency of its own left to resolve.
pip_quietly() {  # pip in .venv, less the machine's notes on its extra indexes; fails as pip does
  local log status=0
  log=$(mktemp)
  .venv/bin/python -m pip --disable-pip-version-check "$@" >"$log" 2>&1 || status=$?
  grep -v -e "^WARNING: Location" -e "^No broken requirements found" "$log" >&2 || true
  rm -f "$log"
  return "$status"
}
# pip itself first, from its own lock: the pip a venv starts with (23.2 on Python 3.11.7)
# refuses a hashed lock once a dependency asks for an extra of a package the lock pins at
# an older release than the newest ("fonttools[woff]>=4.59.2 ... must have their versions
# pinned"), so a fresh machine failed to install the day fonttools 4.69.1 came out.
pip_quietly install -q --require-hashes -r requirements-pip.lock \
  || { echo "setup: pip did not install (requirements-pip.lock)" >&2; exit 1; }
# --no-compile: pip would compile every module of every package, faker's hundreds of
# locales and mypy's sources among them (16 of the 31 seconds their install took);
# what docgen runs is compiled below, and a test tool when first imported (make test
# writes bytecode).
pip_quietly install -q --no-compile --require-hashes -r requirements.lock \
  || { echo "setup: the locked dependencies did not install (requirements.lock)" >&2; exit 1; }
pip_quietly install -q --no-deps --no-build-isolation -e . \
  || { echo "setup: docgen did not install" >&2; exit 1; }
pip_quietly check >/dev/null \
  || { echo "setup: requirements.lock does not fit pyproject.toml: run make lock" >&2; exit 1; }
# docgen's modules compiled once, here, and the packages' modules its commands, desk,
# renderers and workers load (by loading them, bytecode written): every desk, worker and
# command the tests start imports them, and where PYTHONDONTWRITEBYTECODE is set (as on
# some build machines) Python would otherwise compile them from source again in each process.
.venv/bin/python -m compileall -q -j 0 docgen >/dev/null
if ! loaded=$(PYTHONDONTWRITEBYTECODE= .venv/bin/python -c 'import docgen.cli, docgen.desk.app
import docgen.register.store, docgen.render.pdf, docx, docxtpl, weasyprint' 2>&1); then
  echo "$loaded" >&2
  echo "setup: docgen did not install" >&2
  exit 1
fi
