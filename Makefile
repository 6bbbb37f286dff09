# The two Quick start commands (README): `make demo` and `make test`.
.PHONY: setup demo test lint bench frame

setup:
	bash scripts/setup.sh

demo: setup
	.venv/bin/docgen demo -o out

lint: setup
	.venv/bin/ruff check .

test: lint
	.venv/bin/pytest

bench: setup
	.venv/bin/python benchmarks/batch.py

frame: setup
	.venv/bin/python scripts/build_frame.py
