"""Pronoun benchmark: ingest of the DiscoMT en-fr corpus with its pronoun analyses, and the APT and
AutoPRF views, in a fresh child process on an on-disk warehouse.

    $ python -m benchmarks.pronouns [--data ../shared/data/mt/discomt-en-fr] [--repeat 3]

4,954 segments, reference and MT output with their alignments, two configurations computed (target:
under 5 s). Nothing is written into the project.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

from evalhouse.version import __version__

_PRONOUN_CHILD = """
import sys, time, resource, evalhouse
from evalhouse.ingest.translations import ingest_translations
d = sys.argv[2].rstrip("/") + "/"
start = time.perf_counter()
with evalhouse.connect(sys.argv[1]) as wh:
    ingest_translations(wh, "discomt", source=d + "mt-output.en", reference=d + "pronoun-test.tok.fr",
                        source_reference_alignment=d + "pronoun-test.tok.en-fr.alig", documents=d + "doc-boundaries",
                        pronouns="en-fr", team="mt", run="1", output=d + "mt-output.fr",
                        source_output_alignment=d + "mt-output.en-fr.alig", skip_bad_alignment_lines=True)
    ingest = time.perf_counter() - start
    apt = wh.sql("SELECT config, apt, apt_a, apt_b FROM apt_scores ORDER BY config").fetchall()
    prf = wh.sql("SELECT config, precision, recall, f, restricted_recall FROM autoprf_scores ORDER BY config").fetchall()
    total = time.perf_counter() - start
print(ingest, total, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
for row in apt + prf:
    print(*row)
"""


def main(argv: list[str] | None = None) -> None:
    """Ingest of the DiscoMT en-fr corpus (4,954 segments, reference + MT output + alignments, two
    configurations computed) plus the APT and AutoPRF views, in a fresh child process, on-disk warehouse."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent.parent
    parser.add_argument("--data", type=Path, default=here.parent / "shared" / "data" / "mt" / "discomt-en-fr")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not (args.data / "mt-output.en").exists():
        sys.exit(f"no DiscoMT data under {args.data}")

    print(f"# evalhouse {__version__} pronoun benchmark (target: under 5 s)")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, duckdb {duckdb.__version__}"
    )
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run(
                [sys.executable, "-c", _PRONOUN_CHILD, str(Path(tmp) / "p.duckdb"), str(args.data)],
                capture_output=True,
                text=True,
                check=True,
            )
        lines = r.stdout.strip().splitlines()
        ingest, total, rss = lines[0].split()
        print(
            f"run {i + 1}: ingest + pronoun analyses {float(ingest):.2f} s; with APT and AutoPRF views "
            f"{float(total):.2f} s; peak RSS {int(rss) / 1024:,.0f} MiB"
        )
    for line in lines[1:]:
        print("  " + line)


if __name__ == "__main__":
    main()
