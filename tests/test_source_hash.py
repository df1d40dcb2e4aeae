"""Issue 17, point 5: the stored SHA-256 describes exactly the bytes that were loaded.

``ingest treebank`` reads each file once (``loaders.source.ByteStream``): the bytes hashed are the bytes
parsed, so a file rewritten while it is being read still gets a digest of what was stored.  The other
loaders hand a validated path on to a second reader (``open_source``); they refuse a file whose
identity (size, modification and change times, inode) changed in between.
"""

from __future__ import annotations

import hashlib

import pytest

import evalhouse
from evalhouse.errors import InputError
from evalhouse.loaders import source as source_module

from .conftest import SAMPLE


@pytest.mark.slow
def test_treebank_hash_is_of_the_bytes_loaded(tmp_path, monkeypatch):
    original = SAMPLE.read_bytes()
    changed = original.replace(b"village", b"villaje")  # same length, in the file's last sentence
    assert changed != original and len(changed) == len(original)
    path = tmp_path / "s.conllu"
    path.write_bytes(original)
    monkeypatch.setattr(source_module, "BLOCK", 4096)
    plain = source_module.ByteStream.__iter__

    def rewritten_after_first_block(self):
        for i, block in enumerate(plain(self)):
            yield block
            if i == 0:
                path.write_bytes(changed)  # in place: the open handle reads the new bytes from here on

    monkeypatch.setattr(source_module.ByteStream, "__iter__", rewritten_after_first_block)
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        wh.ingest_treebank([str(path)], corpus="s")
        [stored] = wh.sql("SELECT sha256 FROM corpora").fetchone()[0]
        wh.export_conllu("s", tmp_path / "back.conllu")
    loaded = (tmp_path / "back.conllu").read_bytes()  # the sample is canonical: export gives the bytes loaded
    assert loaded != original  # the rewrite was read (every "village" is past the first block)
    assert stored == hashlib.sha256(loaded).hexdigest()
    assert stored != hashlib.sha256(original).hexdigest()


def test_open_source_refuses_a_file_changed_underneath(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"one\ntwo\n")
    with pytest.raises(InputError, match="changed while it was being read") as caught:
        with source_module.open_source(path) as src:
            assert src.path == str(path)  # the fast path: the consumer reads the original
            path.write_bytes(b"one\nTWO\n")
    assert caught.value.path == str(path)
    with source_module.open_source(path) as src:  # unchanged: accepted
        assert src.sha256 == hashlib.sha256(b"one\nTWO\n").hexdigest()
