"""The examples in the docstrings of the modules a reader starts from run as tests."""

import doctest
from types import ModuleType

import pytest

from engine import view
from engine.rules import hand, tiles
from engine.rules.scoring import score, spec
from tests.interpreted import interpreted

MODULES = [tiles, hand, score, spec, view]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples_hold(module: ModuleType) -> None:
    # a compiled module's examples are read from its source (tests/interpreted.py)
    failures, tried = doctest.testmod(interpreted(module), optionflags=doctest.ELLIPSIS)
    assert tried > 0, f"{module.__name__} has no examples left"
    assert failures == 0, f"{failures} of {tried} examples fail (output above)"
