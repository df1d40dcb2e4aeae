"""The campaign benchmark's peer (``benchmarks/campaign_loop.py``, a per-sentence Python loop) computes the
same numbers as the warehouse: every sentence, relation and submission row of a small campaign on the
bundled sample treebank, and each run's SR and sacreBLEU scores, compared to 1e-12. Not a timed test: the
times are ``python -m benchmarks.campaign``'s."""

from pathlib import Path
import pytest

import evalhouse
from benchmarks.campaign import compare, perturbed, read_blocks, write_campaign
from benchmarks.campaign_loop import score_campaign

SAMPLE = Path(evalhouse.__file__).parent / "sample" / "sample.conllu"


@pytest.mark.slow
def test_loop_equals_warehouse(tmp_path):
    directory = tmp_path / "campaign"
    real = tmp_path / "real" / "given" / "en_out.txt"  # a run with a missing sentence and an empty one
    real.parent.mkdir(parents=True)
    blocks = read_blocks(SAMPLE)
    text = perturbed(blocks, 99, tokenised=False).split("\n\n")
    text[1] = "# sent_id = 2\n# text = \n"
    del text[2]
    real.write_text("\n\n".join(text), encoding="utf-8")
    n = write_campaign(SAMPLE, [real], directory, 5)
    assert n == len(blocks) > 10
    loop = score_campaign(SAMPLE, directory)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([SAMPLE], corpus="reference")
        wh.ingest_outputs(directory, reference="reference")
        compared, differences = compare(wh.con, loop)
    assert len(loop["submissions"]) == len(loop["sr"]) == 5 and len(loop["sacrebleu"]) == 10
    assert compared > 5 * n * 10
    assert not differences, differences[:5]
    # the check can fail: each changed number is found
    loop["sentences"][3][6] += 1e-9
    loop["sr"][2][3] += 1e-9
    loop["sacrebleu"][1][3] += 1e-9
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([SAMPLE], corpus="reference")
        wh.ingest_outputs(directory, reference="reference")
        assert [d[0] for d in compare(wh.con, loop)[1]] == ["sentences", "sr", "sacrebleu"]


def test_a_timed_child_does_not_import_from_the_working_directory(tmp_path, monkeypatch):
    """benchmarks.process.run (and so every contender, ``--before``'s included) runs the child without the working
    directory on its path: from the repository root, another virtualenv's python imported this checkout's
    ``evalhouse/`` package instead of its own."""
    import sys

    from benchmarks.process import run

    (tmp_path / "evalhouse").mkdir()
    (tmp_path / "evalhouse" / "__init__.py").write_text("raise SystemExit('imported from the working directory')\n")
    monkeypatch.chdir(tmp_path)
    out = run([sys.executable, "-c", "import evalhouse, os; print(os.path.dirname(evalhouse.__file__))"])["out"]
    assert Path(out.strip()) == Path(evalhouse.__file__).parent
