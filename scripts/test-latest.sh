#!/usr/bin/env bash
# The suite against the newest releases that pyproject.toml's ranges allow, in a fresh
# .venv-latest apart from the lock: what the next `make lock` would bring is found by the
# project, not by a newcomer. Reports which versions differ from requirements.lock, which
# newer releases a bound in pyproject.toml holds back, and what the suite made of them, in
# out/test-latest.txt (the suite's whole output beside it); exits as the suite does.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
mkdir -p out
report=out/test-latest.txt
log=out/test-latest.log

rm -rf .venv-latest
"$python" -m venv .venv-latest
.venv-latest/bin/python -m pip install -q --disable-pip-version-check --upgrade pip 2>&1 \
  | grep -v "^WARNING: Location" >&2 || true
.venv-latest/bin/python -m pip install -q --disable-pip-version-check --upgrade \
  --upgrade-strategy eager -e ".[test]" 2>&1 | grep -v "^WARNING: Location" >&2 || true
.venv-latest/bin/python -c 'import docgen, weasyprint, docx' \
  || { echo "test-latest: the newest releases did not install together" >&2; exit 1; }
.venv-latest/bin/python -m compileall -q -j 0 docgen >/dev/null

status=0
# all of it but the check that this environment is the lock (it is not, on purpose)
PYTHONDONTWRITEBYTECODE= .venv-latest/bin/pytest -n 2 --dist loadfile -p no:cacheprovider \
  --deselect tests/test_lock.py::test_this_environment_is_the_lock >"$log" 2>&1 || status=$?
.venv-latest/bin/python scripts/latest_report.py requirements.lock "$log" "$status" \
  | tee "$report"
exit "$status"
