"""BERT's uncased WordPiece tokenizer (all-MiniLM-L6-v2's), from a package with a clear licence.

The vocabulary is bert-base-uncased's 30,522 tokens. It comes from Microsoft's `blingfire`
(MIT), whose wheel ships it as `bert_base_tok.i2w`, an id-to-token map in its own format: each
id is decoded through blingfire's own library, a continuation piece told from a word by
decoding it after "the" ("the" + "##s" reads "thes", "the" + "s" reads "the s"). The result is
checked against the SHA-256 of bert-base-uncased's `vocab.txt`, so a different file is refused
rather than silently tokenizing otherwise. The pipeline around it is BERT's uncased one, as
the model's own tokenizer.json declares it.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np

VOCAB_SIZE = 30_522
# sha256 of bert-base-uncased's vocab.txt: one token a line, newline-terminated.
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
SPECIAL = {0: "[PAD]", 100: "[UNK]", 101: "[CLS]", 102: "[SEP]", 103: "[MASK]"}
THE = 1996  # the token "the"


def blingfire_file(name: str) -> Path:
    # find_spec locates the package without importing it: its import loads a native library.
    spec = importlib.util.find_spec("blingfire")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "No MiniLM tokenizer: install `blingfire` (requirements-local.txt), "
            "or set LOCAL_EMBEDDER=wordllama."
        )
    return Path(next(iter(spec.submodule_search_locations))) / name


def bert_uncased_vocabulary() -> list[str]:
    """bert-base-uncased's tokens, by id (about 0.2 s)."""
    import blingfire

    handle = blingfire.load_model(str(blingfire_file("bert_base_tok.i2w")))
    try:

        def decoded(*ids: int) -> str:
            text: str = blingfire.ids_to_text(
                handle, np.array(ids, dtype=np.int32), skip_special_tokens=False
            )
            return text

        tokens = []
        for token_id in range(VOCAB_SIZE):
            token = SPECIAL.get(token_id) or decoded(token_id)
            # Specials decode lower-cased; [unusedN] never joins a word.
            joins = token_id not in SPECIAL and not token.startswith("[unused")
            if joins and decoded(THE, token_id) == "the" + token:
                token = "##" + token
            tokens.append(token)
    finally:
        blingfire.free_model(handle)
    digest = hashlib.sha256(("\n".join(tokens) + "\n").encode()).hexdigest()
    if digest != VOCAB_SHA256:
        raise RuntimeError("blingfire's bert_base_tok.i2w is not bert-base-uncased's vocabulary")
    return tokens


def bert_uncased_tokenizer(max_tokens: int) -> Any:
    """A `tokenizers.Tokenizer` that gives the ids all-MiniLM-L6-v2's tokenizer.json gives:
    BERT's normalizer (lower case, accents kept as the model's file says, CJK split), its
    pre-tokenizer, WordPiece with `##` continuations, [CLS] ... [SEP], truncated to `max_tokens`."""
    from tokenizers import AddedToken, Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    vocabulary = {token: token_id for token_id, token in enumerate(bert_uncased_vocabulary())}
    tokenizer = Tokenizer(WordPiece(vocabulary, unk_token="[UNK]", max_input_chars_per_word=100))
    tokenizer.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 101), ("[SEP]", 102)]
    )
    # As in the model's file: a literal "[SEP]" in a text is the special token.
    tokenizer.add_special_tokens([AddedToken(token, normalized=False) for token in SPECIAL.values()])
    tokenizer.enable_truncation(max_tokens)
    tokenizer.no_padding()
    return tokenizer
