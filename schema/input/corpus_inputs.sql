-- corpus_inputs: which corpus is the generation input of which reference corpus, e.g. the SR'19
-- shallow-track input (lemmas in FORM, shuffled word order, lin=+-N hints in FEATS) of UD en_ewt test.
-- Sentence i of the input corpus is the input of sentence i of the reference corpus.
-- Grain: input corpus. Key: corpus.
CREATE TABLE IF NOT EXISTS corpus_inputs (
    corpus      VARCHAR NOT NULL PRIMARY KEY,
    reference   VARCHAR NOT NULL,
    sentences   INTEGER NOT NULL
);
COMMENT ON TABLE corpus_inputs IS 'Links a generation-input corpus (e.g. SR shallow-track input trees) to the reference corpus it was derived from, sentence by sentence (same positions). Grain: input corpus.';
COMMENT ON COLUMN corpus_inputs.corpus IS 'The input corpus (corpora.corpus).';
COMMENT ON COLUMN corpus_inputs.reference IS 'The reference corpus whose sentence at the same position the input encodes.';
COMMENT ON COLUMN corpus_inputs.sentences IS 'Sentences linked (equal in both corpora, checked at ingest together with the word count of every sentence).';
