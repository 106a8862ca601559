"""The front door, ``import pokerdyn as pd`` (issue 35): every name it exports resolves, and
every function has a numpy-style docstring whose example runs (a doctest here)."""
from __future__ import annotations

import doctest
import inspect

import pytest

import pokerdyn as pd

FUNCTIONS = [n for n in pd._EXPORTS if n != "GameError"]


def test_every_export_resolves_and_is_listed():
    assert set(pd._EXPORTS) <= set(dir(pd)) and set(pd._EXPORTS) <= set(pd.__all__)
    for name in pd._EXPORTS:
        assert getattr(pd, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        pd.no_such_thing  # noqa: B018


def test_bad_input_is_one_value_error_type():
    assert issubclass(pd.GameError, ValueError)
    with pytest.raises(pd.GameError, match=r"^unknown game 'nosuch'; available: kuhn, "):
        pd.game("nosuch")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_docstring_is_numpy_style_with_an_example_that_runs(name):
    fn = getattr(pd, name)
    doc = inspect.getdoc(fn) or ""
    for section in ("Parameters\n----------", "Returns\n-------", "Examples\n--------"):
        assert section in doc, f"pd.{name}: no {section.splitlines()[0]} section"
    finder = doctest.DocTestFinder(recurse=False)
    tests = [t for t in finder.find(fn, f"pd.{name}", globs={"pd": pd}) if t.examples]
    assert tests, f"pd.{name}: no doctest example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0, f"pd.{name}: {runner.failures} doctest example(s) failed"
