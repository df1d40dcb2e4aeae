"""DuckDB's memory limit while a treebank is streamed in, and the settings put back after every transaction
(evalhouse.memory; issue 18's ingest memory). No time or RSS is asserted: benchmarks.treebanks measures them."""

from __future__ import annotations

import functools

import duckdb
import pytest

import evalhouse
from evalhouse import memory
from evalhouse.errors import InputError
from evalhouse.ingest import treebanks, writer

from tests.conftest import write

SENTENCE = (
    "# sent_id = s{n}\n# text = Dogs bark.\n"
    "1\tDogs\tdog\tNOUN\tNNS\t_\t2\tnsubj\t_\t_\n"
    "2\tbark\tbark\tVERB\tVBP\t_\t0\troot\t_\tSpaceAfter=No\n"
    "3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n\n"
)


def treebank_file(tmp_path, name="t.conllu", sentences=3):
    return write(tmp_path, name, "".join(SENTENCE.format(n=i) for i in range(sentences)))


def settings(wh):
    return wh.con.execute("SELECT current_setting('threads'), current_setting('memory_limit')").fetchall()[0]


def limits_of_inserts(monkeypatch, module=writer) -> list[tuple[str, str]]:
    """(table, DuckDB's memory limit) of every INSERT of rows that ``module`` (the treebank loader, or the
    warehouse's ``insert``) runs from now on, in order."""
    seen = []
    real = module.execute_on_rows

    def recording(con, sql, rows):
        seen.append((sql.split()[2].strip('"'), con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]))
        return real(con, sql, rows)

    monkeypatch.setattr(module, "execute_on_rows", recording)
    return seen


@pytest.mark.parametrize(
    "shown, expected",
    [
        ("18.8 GiB", int(18.8 * 2**30)),
        ("256.0 MiB", 256 * 2**20),
        ("976.5 KiB", int(976.5 * 1024)),
        ("0 bytes", 0),
        ("2GB", 2 * 10**9),
        ("1.5 TiB", int(1.5 * 2**40)),
        ("", None),
        ("unlimited", None),
        ("12 parsecs", None),
        ("-1 GiB", None),
    ],
)
def test_shown_bytes_reads_duckdbs_form_and_nothing_else(shown, expected):
    assert memory.shown_bytes(shown) == expected


def test_every_limit_duckdb_shows_is_read_back():
    con = duckdb.connect()
    for given in ("1MB", "256MB", "1000MB", "1.7GiB", "2GB", "3.5GiB", "18.8GiB", "1TB"):
        con.execute(f"SET memory_limit = '{given}'")
        shown = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        assert memory.shown_bytes(shown) is not None, shown
        con.execute(f"SET memory_limit = '{memory.shown_bytes(shown, middle=True)} bytes'")
        assert con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] == shown  # no drift


def test_the_limit_is_lowered_in_the_block_and_put_back_exactly(tmp_path):
    # 2GB shows as "1.8 GiB"; setting that back would lose 3% and drift lower with every ingest
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GB") as wh:
        before = settings(wh)
        with wh.streaming_memory() as lowered:
            assert lowered
            assert settings(wh)[1] == "64.0 MiB"
        assert settings(wh) == before
        wh.con.execute("SET memory_limit = '1.8 GiB'")  # what a round trip of the shown form would give
        drifted = settings(wh)[1]
        assert drifted != before[1]  # so the test above could fail
        with wh.streaming_memory():
            pass
        assert settings(wh)[1] == drifted  # changed by SQL after the open: set back from its shown form


def test_without_an_option_the_limit_goes_back_to_duckdbs_default(tmp_path):
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        before = settings(wh)
        default = duckdb.connect().execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        assert before[1] == default
        with wh.streaming_memory() as lowered:
            assert lowered
        assert settings(wh) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    "path, limit, no_spill", [(":memory:", None, False), ("w.duckdb", "60MB", False), ("w.duckdb", None, True)]
)
def test_left_alone_in_memory_when_already_lower_or_with_nowhere_to_spill(tmp_path, path, limit, no_spill):
    with evalhouse.connect(path if path == ":memory:" else tmp_path / path, memory_limit=limit) as wh:
        if no_spill:  # inserted rows wait in memory for a full row group: the lower limit could run out
            wh.con.execute("SET temp_directory = ''")
        before = settings(wh)
        with wh.streaming_memory() as lowered:
            assert not lowered
            assert settings(wh) == before


def test_an_ingest_streams_its_chunks_and_checks_sent_ids_under_the_lowered_limit(tmp_path, monkeypatch):
    seen = limits_of_inserts(monkeypatch)
    path = treebank_file(tmp_path)
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GB") as wh:
        before = settings(wh)
        [summary] = wh.ingest_treebank([path], corpus="c")
        assert summary.words == 9
        assert settings(wh) == before
        # the duplicate sent_id query, made to report the limit it ran under as a duplicate
        monkeypatch.setattr(
            treebanks,
            "_DUPLICATE_SENT_ID",
            "SELECT 1, current_setting('memory_limit'), 1, true, true, true "
            "WHERE $corpus IS NOT NULL AND $offset IS NOT NULL",
        )
        with pytest.raises(InputError, match="duplicate sent_id '64.0 MiB'"):
            wh.ingest_treebank([path], corpus="d")
        assert settings(wh) == before
    assert {table for table, _ in seen} >= {"sentences", "nodes", "edges"}
    assert {limit for _, limit in seen} == {"64.0 MiB"}


def test_outputs_are_inserted_under_the_lowered_limit(tmp_path, monkeypatch):
    """ingest outputs writes each submission's rows under the streaming limit too (issue 18's campaign: DuckDB kept
    every block the ingest wrote), and puts the limit back."""
    from evalhouse import warehouse

    seen = limits_of_inserts(monkeypatch, warehouse)
    output = write(tmp_path, "out.txt", "Dogs bark.\nDogs bark.\nbark dogs\n")
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GB") as wh:
        wh.ingest_treebank([treebank_file(tmp_path)], corpus="c")
        before = settings(wh)
        seen.clear()
        wh.ingest_outputs(output, reference="c", team="t", run="1")
        assert settings(wh) == before
    assert {table for table, _ in seen} >= {
        "output_sentences",
        "output_tokens",
        "alignments",
        "sentence_statistics",
        "submissions",
    }
    assert {limit for _, limit in seen} == {"64.0 MiB"}


def test_an_ingest_that_duckdb_aborts_leaves_the_connection_as_it_found_it(tmp_path, monkeypatch):
    """A failed statement aborts the transaction, which refuses SET until ROLLBACK: the warehouse puts the
    single thread and the lowered limit back after it, and stores nothing."""

    def failing(con, sql, rows):
        con.execute("SELECT error('the disk is full')")

    path = treebank_file(tmp_path)
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GB") as wh:
        wh.con.execute("SET threads = 2")
        before = settings(wh)
        monkeypatch.setattr(writer, "execute_on_rows", failing)
        with pytest.raises(duckdb.Error, match="the disk is full"):
            wh.ingest_treebank([path], corpus="c")
        assert settings(wh) == before
        assert wh.corpora() == []
        monkeypatch.undo()
        [summary] = wh.ingest_treebank([path], corpus="c")  # the retry works, under the same settings
        assert summary.sentences == 3 and settings(wh) == before


def test_settings_changed_in_a_transaction_that_commits_are_kept(tmp_path):
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="3GB") as wh:
        with wh.transaction():
            wh.con.execute("SET threads = 1")
            wh.con.execute("SET memory_limit = '1GB'")
        assert settings(wh) == (1, "953.6 MiB")


def test_the_error_inside_the_block_is_the_one_raised(tmp_path):
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        with pytest.raises(duckdb.InvalidInputException, match="first"):
            with wh.transaction():
                with wh.streaming_memory() as lowered:
                    assert lowered
                    wh.con.execute("SELECT error('first')")  # aborts: putting the limit back is refused
        assert settings(wh)[1] == duckdb.connect().execute("SELECT current_setting('memory_limit')").fetchall()[0][0]


def test_settings_changed_in_a_failed_transaction_are_put_back(tmp_path):
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="3GB") as wh:
        before = settings(wh)
        with pytest.raises(duckdb.Error):
            with wh.transaction():
                wh.con.execute("SET threads = 1")
                wh.con.execute("SET memory_limit = '100MB'")
                wh.con.execute("SELECT error('boom')")
        assert settings(wh) == before


def test_the_limit_put_back_is_the_one_duckdb_enforces(tmp_path):
    """duckdb 1.5.6's RESET memory_limit shows the default but keeps enforcing the lowered limit: a query
    that needs more than the lowered limit, with nowhere to spill, must run once the block has ended."""
    needs_memory = "SELECT count(*) FROM (SELECT range % 500000 AS k, list(range) FROM range(1000000) GROUP BY k)"
    for limit in (None, "1GB"):
        with evalhouse.connect(tmp_path / f"w{limit}.duckdb", memory_limit=limit) as wh:
            with memory.lowered(wh.con, wh._memory_limit, limit=16 << 20) as lowered:
                assert lowered
                wh.con.execute("SET temp_directory = ''")  # nowhere to spill: a query over the limit fails
                with pytest.raises(duckdb.OutOfMemoryException):
                    wh.con.execute(needs_memory)  # so the assertion below could fail
            assert wh.con.execute(needs_memory).fetchall() == [(500000,)]


def pending_rows(con) -> int:
    return con.execute(
        "SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'"
    ).fetchall()[0][0]


INSERT_ROWS = "INSERT INTO t SELECT repeat('x', 400) || i, i FROM range(60000) r(i)"  # fewer than a row group


@pytest.mark.slow
def test_rows_an_earlier_file_left_spill_and_the_limit_is_still_lowered(tmp_path):
    """Rows inserted and not yet written (what an earlier file of the same ingest leaves: a part row group
    per table) spill to the temporary directory to meet the lower limit. Counting them as memory DuckDB
    could not free kept every file after the first under the full limit."""
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    con.execute("SET memory_limit = '2GB'")
    con.execute("CREATE TABLE t (a VARCHAR, b BIGINT)")
    con.execute("BEGIN")
    con.execute(INSERT_ROWS)
    limit = 16 << 20
    assert pending_rows(con) > limit // 2  # what the check refused before
    with memory.lowered(con, "2GB", limit=limit) as lowered:
        assert lowered
        assert con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] == "16.0 MiB"
        assert pending_rows(con) <= limit
        con.execute(INSERT_ROWS)
    con.execute("COMMIT")
    assert con.execute("SELECT count(*), count(DISTINCT a) FROM t").fetchall() == [(120000, 60000)]
    assert con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] == "1.8 GiB"


def test_without_room_to_spill_them_such_rows_keep_the_limit(tmp_path):
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    con.execute("SET memory_limit = '2GB'")
    con.execute("SET max_temp_directory_size = '1MB'")
    con.execute("CREATE TABLE t (a VARCHAR, b BIGINT)")
    con.execute("BEGIN")
    con.execute(INSERT_ROWS)
    with memory.lowered(con, "2GB", limit=16 << 20) as lowered:
        assert not lowered
        assert con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] == "1.8 GiB"
    con.execute("COMMIT")


@pytest.mark.slow
def test_every_file_of_a_corpus_streams_under_the_lowered_limit(tmp_path, monkeypatch):
    seen = limits_of_inserts(monkeypatch)
    files = [write(tmp_path, f"{k}.conllu", "".join(SENTENCE.format(n=f"{k}-{i}") for i in range(3))) for k in range(3)]
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GB") as wh:
        [summary] = wh.ingest_treebank(files, corpus="c")
        assert summary.sentences == 9
    assert len(seen) >= 9 and {limit for _, limit in seen} == {"64.0 MiB"}


def repeated_file(tmp_path, sentences: int, text_bytes: int, id_bytes: int):
    once = "".join(
        f"# sent_id = {k:06d}{'i' * id_bytes}\n# text = {'t' * text_bytes}\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n"
        for k in range(sentences)
    )
    return write(tmp_path, "twice.conllu", once + once)


@pytest.mark.slow
@pytest.mark.parametrize("sentences, text_bytes, id_bytes", [(6000, 4000, 0), (6000, 1000, 100)])
def test_the_duplicate_check_fits_the_lowered_limit(tmp_path, monkeypatch, sentences, text_bytes, id_bytes):
    """A file whose every sentence is repeated, with long comments or long sent_ids, is reported as a duplicate
    under the lowered limit (here 24 MiB): the check groups hashes and joins lines, never the comments, and
    pairs each sentence with the first of its sent_id only. Joining the comments or grouping the strings
    ran out of memory."""
    monkeypatch.setattr(memory, "lowered", functools.partial(memory.lowered, limit=24 << 20))
    path = repeated_file(tmp_path, sentences, text_bytes, id_bytes)
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GB") as wh:
        with pytest.raises(InputError) as caught:
            wh.ingest_treebank([path], corpus="c")
        assert (caught.value.line, caught.value.problem) == (
            4 * sentences + 1,
            f"duplicate sent_id '{0:06d}{'i' * id_bytes}' (first used at line 1)",
        )
        assert settings(wh)[1] == "1.8 GiB" and wh.corpora() == []
