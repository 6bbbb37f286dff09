# The two Quick start commands (README): `make demo` and `make test`.
.PHONY: setup setup-test demo test lint bench frame dist docs

setup:
	bash scripts/setup.sh

setup-test:
	bash scripts/setup.sh --test

demo: setup
	.venv/bin/docgen demo -o out

lint: setup-test
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

# Two test processes, each taking whole modules (their servers and fixtures are per module).
test: lint
	.venv/bin/pytest -n 2 --dist loadfile

bench: setup-test
	.venv/bin/python benchmarks/batch.py
	.venv/bin/python benchmarks/desk.py
	.venv/bin/python benchmarks/batch_faults.py
	.venv/bin/python -m benchmarks.register
	.venv/bin/python -m benchmarks.queue
	.venv/bin/python -m benchmarks.signing

frame: setup
	.venv/bin/python scripts/build_frame.py

# A release wheel in dist/, its version from the repository's tags (docs/deploy.md, step 10).
dist: setup-test
	.venv/bin/python -m pip wheel --no-deps --no-build-isolation -w dist .

# The documentation site in site/: the guides per person and the reference from the code.
docs: setup-test
	.venv/bin/mkdocs build --strict
