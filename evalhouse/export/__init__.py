"""Export: the warehouse written out for other tools. One view or table to a file
(:mod:`evalhouse.export.relation`), a corpus back to CoNLL-U (:mod:`evalhouse.export.conllu`), every
relation as a Parquet dataset or PostgreSQL load files (:mod:`evalhouse.export.dataset`), read back by
other engines through its manifest (:mod:`evalhouse.export.manifest`), and the schema and views in
another SQL dialect (:mod:`evalhouse.export.transpile`).
"""
