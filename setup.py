"""The four optional C kernels; everything else is in pyproject.toml.

They are declared here, not in pyproject.toml's ``[[tool.setuptools.ext-modules]]``, because that table
needs setuptools 74.1 or later: ``pip install --no-build-isolation .`` (or ``pip wheel``) in an environment
with an older setuptools refused the whole project. Each kernel is ``optional``: without a C compiler the
build goes on and the same values come from Python, slower.
"""

from setuptools import Extension, setup

KERNELS = {
    # exact clipped n-gram counts for sentence BLEU and the SR metrics; fallback analysis/_bleu_python.py
    "evalhouse.analysis._bleu": "analysis/_bleu.c",
    # EVALB's per-sentence counts for `evalhouse evalb`; fallback analysis/parse_eval.py
    "evalhouse.analysis._evalb": "analysis/_evalb.c",
    # flux weights and projectivity tree by tree for the treebank ingest (fallback analysis/trees.py), and
    # the lineages of the dependency LA (fallback analysis/dependency_eval.py) and the LA distances (fallback
    # analysis/leaf_ancestor.py)
    "evalhouse.analysis._trees": "analysis/_trees.c",
    # a chunk of CoNLL-U lines split into arrays in one pass; fallback loaders/conllu.py (_split_numpy)
    "evalhouse.loaders._conllu": "loaders/_conllu.c",
}

setup(
    ext_modules=[
        Extension(name, [source], extra_compile_args=["-O2"], optional=True) for name, source in KERNELS.items()
    ]
)
