"""What every shipped classifier model carries besides its weights: the metadata dict
saved with it (class/id vocabulary, decision threshold, DensitySum recovery flag)."""

from __future__ import annotations

from .constants import DEFAULT_THRESHOLD

__all__ = ["ModelMeta"]


class ModelMeta:
    """Mixin for model dataclasses with a ``meta: dict`` field."""

    meta: dict

    @property
    def vocab(self) -> dict[str, int]:
        """Class/id token -> bit of the vocabulary features."""
        v = self.meta.get("_vocab_map")
        if v is None:
            v = self.meta["_vocab_map"] = {t: i for i, t in enumerate(self.meta.get("vocab", []))}
        return v

    @property
    def threshold(self) -> float:
        """Decision threshold on P(content), chosen by cross-validation."""
        return float(self.meta.get("threshold", DEFAULT_THRESHOLD))

    @property
    def recovery(self) -> bool:
        """Whether DensitySum recovery follows this model's decisions."""
        return bool(self.meta.get("recovery", False))
