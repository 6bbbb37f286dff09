"""Signing benchmark (not a test): what signing costs an issue, and what the verification
line and its QR code take on the page.

    .venv/bin/python -m benchmarks.signing [--rounds 10]

1. ``docgen issue`` of the same notice of violation (PDF only, then every format) into a
   SQLite register, interleaved ``--rounds`` times: without a signing key (the document
   still gets its verification line and a hashed access code) and with one (a pilot
   ECDSA P-256 key, and an RSA 3072 key issued by a local certificate authority):
   medians, the signing cost per document, and the PDF's growth.
2. ``sign_pdf`` alone (the incremental update, pyHanko's CMS) and ``check_signature``.
3. The verification block on the page (the signature box, the QR code and the line), as
   WeasyPrint laid it out: its width and height, the QR code's side and module size, and
   whether it added a page to the sample.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.register import respondent_case
from docgen import api
from docgen.documents.kind import Options
from docgen.register import Register
from docgen.signing import keys
from docgen.signing.check import check_signature
from docgen.signing.codes import IssueMark, new_code
from docgen.signing.sign import Signer, sign_pdf
from tests.helpers.register_cases import notice

PX = 0.75  # points per CSS pixel
CASE = notice()
PASSPHRASE = "a benchmark passphrase"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def settings_with(folder: Path, algorithm: str) -> Path:
    """A settings folder whose Homer key is ``algorithm`` (ecdsa: the pilot key `docgen
    keys create` makes; rsa: an RSA 3072 key, as certificate authorities often issue)."""
    from cryptography.hazmat.primitives.asymmetric import rsa

    folder.mkdir(parents=True)
    key = rsa.generate_private_key(65537, 3072) if algorithm == "rsa" else None
    p12, pem = keys.self_signed("Village of Homer", PASSPHRASE.encode(), key=key)
    (folder / "homer.p12").write_bytes(p12)
    (folder / "homer.pem").write_bytes(pem)
    (folder / "homer.yaml").write_text(
        "signing: {key: homer.p12, certificate: homer.pem}\n"
        "verification: {address: https://homer.example.gov}\n",
        encoding="utf-8",
    )
    return folder


def issue_times(folder: Path, rounds: int) -> None:
    configs = {
        "unsigned": settings_with(folder / "none", "ecdsa"),
        "ECDSA P-256": settings_with(folder / "ecdsa", "ecdsa"),
        "RSA 3072": settings_with(folder / "rsa", "rsa"),
    }
    (configs["unsigned"] / "homer.yaml").write_text(
        "verification: {address: https://homer.example.gov}\n", encoding="utf-8"
    )
    os.environ[keys.PASSPHRASE_ENV] = PASSPHRASE
    for formats in (("pdf",), api.FORMATS):
        times: dict[str, list[float]] = {name: [] for name in configs}
        cpu: dict[str, list[float]] = {name: [] for name in configs}
        sizes: dict[str, int] = {}
        with Register.open(f"sqlite:///{folder / ('r-' + '-'.join(formats))}.sqlite") as reg:
            cases = (respondent_case(i) for i in itertools.count())  # each a new document
            for settings in configs.values():  # warm: engines, fonts, the opened key
                os.environ["DOCGEN_SETTINGS"] = str(settings)
                reg.issue("notice-of-violation", next(cases), formats=formats)
            for _ in range(rounds):
                for name, settings in configs.items():
                    os.environ["DOCGEN_SETTINGS"] = str(settings)
                    start, start_cpu = time.perf_counter(), time.process_time()
                    done = reg.issue("notice-of-violation", next(cases), formats=formats)
                    times[name].append(time.perf_counter() - start)
                    cpu[name].append(time.process_time() - start_cpu)
                    sizes[name] = len(done.files["pdf"])
        base_cpu = statistics.median(cpu["unsigned"])
        print(
            f"docgen issue, {'+'.join(formats)} ({rounds} rounds, SQLite, medians; CPU time "
            "is the steadier figure on a loaded machine):"
        )
        for name in configs:
            wall, used = statistics.median(times[name]), statistics.median(cpu[name])
            extra = ""
            if name != "unsigned":
                extra = f"  signing: CPU +{ms(used - base_cpu)} ({used / base_cpu - 1:+.0%})"
            print(
                f"  {name:<12} {ms(wall):>9} wall, {ms(used):>9} CPU, "
                f"PDF {sizes[name] / 1024:5.1f} KiB{extra}"
            )


def sign_alone(rounds: int) -> None:
    mark = IssueMark(
        "https://homer.example.gov",
        "NOV-2026-0001",
        new_code(),
        "the Village of Homer",
        "Dana R. Whitcomb, Code Enforcement Officer",
        True,
    )
    _, files = api.render_bytes(
        "notice-of-violation",
        {**CASE, "number": "NOV-2026-0001"},
        ("pdf",),
        Options(before_service=True, mark=mark),
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = settings_with(Path(tmp) / "k", "ecdsa")
        key = keys.read_key(folder / "homer.p12", PASSPHRASE.encode())
        signer = Signer(key, "Village of Homer", folder / "homer.pem")
        signing, checking = [], []
        for _ in range(rounds):
            start = time.process_time()
            signed = sign_pdf(files["pdf"], signer, "Dana R. Whitcomb", "bench")
            signing.append(time.process_time() - start)
            start = time.process_time()
            assert check_signature(signed, signer.trust_root).valid
            checking.append(time.process_time() - start)
    print(
        f"CPU time: sign_pdf alone {ms(statistics.median(signing))}, check_signature "
        f"{ms(statistics.median(checking))} (ECDSA, {rounds} rounds); the signature adds "
        f"{(len(signed) - len(files['pdf'])) / 1024:.1f} KiB"
    )


def block_size() -> None:
    from docgen.render.pdf import layout

    mark = IssueMark(
        "https://homer.example.gov",
        "NOV-2026-0001",
        "7K3M-Q9PX-2D4H",
        "the Village of Homer",
        "Dana R. Whitcomb, Code Enforcement Officer",
        True,
    )
    data = {**CASE, "number": "NOV-2026-0001"}
    plain = api.build("notice-of-violation", data, Options(before_service=True))
    marked = api.build("notice-of-violation", data, Options(before_service=True, mark=mark))
    pages_plain, pages_marked = layout(plain).pages, layout(marked).pages
    found = {}

    def walk(box):  # type: ignore[no-untyped-def]
        element = getattr(box, "element", None)
        classes = (element.get("class") or "") if element is not None else ""
        for name in ("verification", "verification-qr"):
            if name in classes.split() and name not in found:
                found[name] = box
        for child in getattr(box, "children", []):
            walk(child)

    walk(pages_marked[-1]._page_box)
    section, qr = found["verification"], found["verification-qr"]
    width = section.border_width() * PX / 72
    height = section.border_height() * PX / 72
    side = qr.border_width() * PX / 72
    modules = 33 + 8  # version 4 (the address with its code) and the quiet zone
    print(
        f"verification block: {width:.2f} x {height:.2f} in ({width * 25.4:.0f} x "
        f"{height * 25.4:.0f} mm) on the last page; QR code {side:.2f} in square "
        f"({side * 25.4:.1f} mm, a module {side * 25.4 / modules:.2f} mm); pages: "
        f"{len(pages_plain)} without it, {len(pages_marked)} with it"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    block_size()
    sign_alone(args.rounds)
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as tmp:
        issue_times(Path(tmp), args.rounds)


if __name__ == "__main__":
    main()
