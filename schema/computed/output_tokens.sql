-- output_tokens: the tokens of each output sentence after reference-guided tokenisation, each with
-- a lemma (from the aligned reference word, from a CoNLL-U output, or the token itself).
-- lemma_key is the key DEA, lemma BLEU and the accuracies compare (evalhouse.analysis.text.word_key,
-- computed in Python at ingest): the case-folded lemma, or the case-folded form where the lemma is _.
-- Grain: team x run x corpus x position x token. Key: (team, run, corpus, position, token).
CREATE TABLE IF NOT EXISTS output_tokens (
    team               VARCHAR NOT NULL,
    run                VARCHAR NOT NULL,
    corpus             VARCHAR NOT NULL,
    position           INTEGER NOT NULL,
    token              INTEGER NOT NULL,
    form               VARCHAR NOT NULL,
    lemma              VARCHAR NOT NULL,
    lemma_source       VARCHAR NOT NULL,
    punct              BOOLEAN NOT NULL,
    stripped_position  INTEGER,
    lemma_key          VARCHAR NOT NULL
);
COMMENT ON TABLE output_tokens IS 'Tokens of each output sentence (reference-guided tokenisation), with lemmas. Grain: team x run x corpus x position x token.';
COMMENT ON COLUMN output_tokens.token IS '1-based index of the token in the output sentence (alignments.from_index).';
COMMENT ON COLUMN output_tokens.lemma IS 'Lemma: the aligned reference word''s, the one a CoNLL-U output gives, or the token itself when neither exists.';
COMMENT ON COLUMN output_tokens.lemma_source IS 'Where the lemma comes from: reference, given or form.';
COMMENT ON COLUMN output_tokens.punct IS 'Punctuation: aligned to a reference word with relation punct, or (unaligned) made only of Unicode punctuation.';
COMMENT ON COLUMN output_tokens.stripped_position IS '1-based position among the non-punctuation tokens (the positions DEA compares with edges.dependent); NULL for punctuation.';
COMMENT ON COLUMN output_tokens.lemma_key IS 'Key DEA, lemma BLEU and the accuracies compare: the lemma case-folded by evalhouse.analysis.text.fold (NFC(casefold(NFD))), or the case-folded form where the lemma is missing (_, from a reference word without a lemma). Computed in Python at ingest; SQL never folds.';
