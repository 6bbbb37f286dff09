# The two Quick start commands (README): `make demo` and `make test`.
.PHONY: setup setup-test demo test check lint bench frame dist docs soak lock test-latest catalogs

setup:
	bash scripts/setup.sh

setup-test:
	bash scripts/setup.sh --test

demo: setup
	.venv/bin/docgen demo -o out

lint: setup-test
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/mypy

# Three test processes on two cores, each taking whole modules (their servers and fixtures
# are per module): many modules wait for part of their time (on a server, a browser, a
# killed process, a client's timeout), and a third process keeps both cores busy meanwhile;
# beside another busy program, three processes also get a larger share of the cores. Four
# were tried from a fresh clone: 26.0 minutes beside a CPU-bound process (three: 27.6), but
# 23.6 on an idle machine (three: 21.8 the same day), where the suite is run most.
# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set: each test process would
# otherwise compile every test module again (collecting takes 10 s instead of 4). The lint
# is part of the suite (tests/test_lint.py), run beside the other tests, not before them.
test: setup-test
	PYTHONDONTWRITEBYTECODE= .venv/bin/pytest -n 3 --dist loadfile

# The edit-test loop, in about a minute (under two on a busy machine): the lint and the
# law's pure rules (deadlines, penalties, each kind's law), the packs and settings, the
# layers and the lock, and every sample rendered in every format (golden text, parity).
# `make test` stays the whole suite, and the README's command.
QUICK = tests/test_deadlines.py tests/test_penalties.py tests/test_penalty_law.py \
	tests/test_notice_law.py tests/test_stop_work_law.py tests/test_agreements_law.py \
	tests/test_appeal_procedure.py tests/test_values.py tests/test_filters.py \
	tests/test_environ.py tests/test_lock.py tests/test_layers.py \
	tests/test_library_warnings.py tests/test_suite_record.py tests/test_parity.py \
	tests/test_golden.py tests/test_samples_agree.py tests/test_packs.py \
	tests/test_settings.py tests/test_law_in_packs.py tests/test_kind_description.py \
	tests/test_catalogs.py tests/test_lint.py
check: setup-test
	PYTHONDONTWRITEBYTECODE= .venv/bin/pytest -n 2 $(QUICK)

# The model of the matter (tests/register/test_matter_model.py) for as long as asked, and
# the properties over every sample case (tests/test_properties.py; the suite takes one a kind):
# SOAK_EXAMPLES sequences of SOAK_STEPS steps each, a new seed every run, failures shrunk.
SOAK_EXAMPLES ?= 200
SOAK_STEPS ?= 50
soak: setup-test
	DOCGEN_SOAK_EXAMPLES=$(SOAK_EXAMPLES) DOCGEN_SOAK_STEPS=$(SOAK_STEPS) \
		.venv/bin/pytest -p no:xdist -q tests/register/test_matter_model.py \
		tests/test_properties.py -m soak

bench: setup-test
	.venv/bin/python benchmarks/batch.py
	.venv/bin/python benchmarks/desk.py
	.venv/bin/python benchmarks/batch_faults.py
	.venv/bin/python -m benchmarks.register
	.venv/bin/python -m benchmarks.register_import
	.venv/bin/python -m benchmarks.due
	.venv/bin/python -m benchmarks.year
	.venv/bin/python -m benchmarks.service
	.venv/bin/python -m benchmarks.queue
	.venv/bin/python -m benchmarks.signing
	.venv/bin/python -m benchmarks.name_lookalikes
	.venv/bin/python -m benchmarks.journeys --before 769cbf57
	.venv/bin/python -m benchmarks.startup

frame: setup
	.venv/bin/python scripts/build_frame.py

# The translation catalogs from the templates (docs/law.md, "Courtesy copies"): extract every
# message into docgen/locale/docgen.pot and add the new ones to each language's catalog.
catalogs: setup
	.venv/bin/python scripts/catalogs.py

# A release wheel in dist/, its version from the repository's tags (docs/deploy.md, step 10).
dist: setup-test
	.venv/bin/python -m pip wheel --no-deps --no-build-isolation -w dist .

# The documentation site in site/: the guides per person and the reference from the code.
docs: setup-test
	.venv/bin/mkdocs build --strict

# requirements.lock anew: every dependency of docgen and its tests at the newest release
# pyproject.toml's ranges allow, for every platform and Python 3.11 on, with hashes
# (uv; `pip install uv` where no .venv has it yet). Run `make test` on it before committing.
UV ?= $(firstword $(wildcard .venv/bin/uv) uv)
lock:
	$(UV) pip compile pyproject.toml --extra test --universal --python-version 3.11 \
		--generate-hashes --upgrade --quiet --custom-compile-command "make lock" \
		-o requirements.lock
	echo pip | $(UV) pip compile - --universal --python-version 3.11 --generate-hashes \
		--upgrade --quiet --custom-compile-command "make lock" -o requirements-pip.lock

# The whole suite against the newest releases, apart from the lock (.venv-latest): what the
# next `make lock` brings, found before a newcomer finds it. Its report: out/test-latest.txt.
test-latest: setup-test
	bash scripts/test-latest.sh
