"""An unknown keyword to prune() is a ValueError naming it, before any work."""

import pytest

from bpseg_pgm.pruning.core import prune


class _NoEmbedder:
    def encode(self, sentences):  # never reached: the keyword is refused first
        raise AssertionError("embedded before the options were checked")


def test_an_unknown_keyword_is_a_value_error_with_the_closest_name():
    with pytest.raises(ValueError, match=r"prune\(\) takes no keyword 'budjet': did you mean 'budget'\?"):
        prune("One sentence. Two sentences.", "query", budjet=0.5, embedder=_NoEmbedder())
    with pytest.raises(ValueError, match=r"prune\(\) takes no keyword 'zzz'$"):
        prune("One sentence. Two sentences.", "query", zzz=1, embedder=_NoEmbedder())
