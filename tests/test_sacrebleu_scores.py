"""sacreBLEU corpus BLEU and chrF (analysis/sacrebleu_scores.py).

Expected values: sacrebleu's own module-level ``corpus_bleu`` / ``corpus_chrf`` called directly, and
for the 16 WMT17 en-de systems the figures sacrebleu's test suite (test/test.sh) lists from
Moses' mteval-v13a.pl (BLEU, 2 decimals) and from chrF++.py (chrF, 4 decimals); five of them are tested.
"""

from __future__ import annotations

import pytest
import sacrebleu

from evalhouse.analysis.sacrebleu_scores import sacrebleu_scores, score_from_statistics
from tests.conftest import shared

MTEVAL_BLEU = {
    "C-3MA.4959": 22.67,
    "FBK.4870": 26.33,
    "KIT.4950": 26.08,
    "LIUM-NMT.4900": 26.6,
    "LMU-nmt-reranked.4934": 27.11,
    "LMU-nmt-single.4893": 26.56,
    "PROMT-Rule-based.4735": 16.61,
    "RWTH-nmt-ensemble.4921": 26.02,
    "SYSTRAN.4847": 26.71,
    "TALP-UPC.4834": 21.24,
    "online-A.0": 20.8,
    "online-B.0": 26.65,
    "online-F.0": 15.45,
    "online-G.0": 18.16,
    "uedin-nmt.4722": 28.3,
    "xmu.4910": 26.69,
}
CHRFPP_CHRF = {
    "C-3MA.4959": 51.9533,
    "FBK.4870": 54.7152,
    "KIT.4950": 55.7629,
    "LIUM-NMT.4900": 55.9284,
    "LMU-nmt-reranked.4934": 56.3908,
    "LMU-nmt-single.4893": 55.9216,
    "PROMT-Rule-based.4735": 50.3511,
    "RWTH-nmt-ensemble.4921": 55.6116,
    "SYSTRAN.4847": 55.5758,
    "TALP-UPC.4834": 51.6860,
    "online-A.0": 52.0023,
    "online-B.0": 56.2633,
    "online-F.0": 49.2588,
    "online-G.0": 51.5871,
    "uedin-nmt.4722": 57.7227,
    "xmu.4910": 55.9642,
}


def test_small_example_equals_sacrebleu_called_directly():
    hyps = ["The cat sat on the mat.", "", None, "Hello, world!"]
    refs = ["The cat sat on a mat.", "Nothing here.", "Missing output.", "Hello world!"]
    r = sacrebleu_scores(hyps, refs)
    texts = [h or "" for h in hyps]
    assert r.bleu == sacrebleu.corpus_bleu(texts, [refs]).score
    assert r.chrf == sacrebleu.corpus_chrf(texts, [refs]).score
    assert r.bleu_text == str(sacrebleu.corpus_bleu(texts, [refs]))
    assert r.bleu_signature == f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{sacrebleu.__version__}"
    assert r.chrf_signature == f"nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{sacrebleu.__version__}"
    assert r.bleu_statistics.shape == (4, 10) and r.chrf_statistics.shape == (4, 18)
    lower = sacrebleu_scores(hyps, refs, lowercase=True, tokenize="intl")
    assert lower.bleu == sacrebleu.corpus_bleu(texts, [refs], lowercase=True, tokenize="intl").score
    assert "case:lc" in lower.bleu_signature and "tok:intl" in lower.bleu_signature
    with pytest.raises(ValueError, match="valid: none, zh, 13a"):
        sacrebleu_scores(hyps, refs, tokenize="moses")
    with pytest.raises(ValueError, match="differ in number"):
        sacrebleu_scores(hyps, refs[:2])


@pytest.mark.realdata
def test_wmt17_en_de_equals_mteval_and_chrfpp():
    folder = shared("bleu", "wmt17-en-de")
    refs = (folder / "reference.txt").read_text(encoding="utf-8").splitlines()
    chrf_close = 0
    # five systems from the lowest to the highest BLEU (sacrebleu's chrF takes about 2 s a system)
    for name in ("online-F.0", "PROMT-Rule-based.4735", "TALP-UPC.4834", "KIT.4950", "uedin-nmt.4722"):
        bleu = MTEVAL_BLEU[name]
        hyps = (folder / f"newstest2017.{name}.en-de.txt").read_text(encoding="utf-8").splitlines()
        r = sacrebleu_scores(hyps, refs)
        assert abs(r.bleu - bleu) <= 0.005 + 1e-9, (name, r.bleu, bleu)
        assert abs(r.chrf - CHRFPP_CHRF[name]) <= 0.01, (name, r.chrf)
        chrf_close += abs(r.chrf - CHRFPP_CHRF[name]) <= 5e-5
        # summed per-sentence statistics give sacrebleu's corpus scores back
        assert score_from_statistics("bleu", r.bleu_statistics) == pytest.approx(r.bleu, abs=1e-9)
        assert score_from_statistics("chrf", r.chrf_statistics) == pytest.approx(r.chrf, abs=1e-9)
    assert chrf_close >= 4  # PROMT differs from chrF++.py by 0.006
