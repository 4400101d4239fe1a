"""One analysis of "a name used and never defined": the NameError's name, unbound uses, names bound anywhere."""

from __future__ import annotations

from bpywright.rules.pack import BY_ID
from bpywright.rules.unbound import NOT_DEFINED, bound_anywhere, not_defined, undefined_names


def test_the_name_a_name_error_names() -> None:
    assert not_defined("NameError: name 'TOP_SIZE' is not defined") == "TOP_SIZE"
    assert not_defined("AttributeError: 'NoneType' object has no attribute 'x'") is None
    assert all(BY_ID[r].explains_error("NameError: name 'x' is not defined") for r in ("missing-import", "misspelt-name"))
    assert BY_ID["missing-import"].explains == BY_ID["misspelt-name"].explains == (NOT_DEFINED.pattern,)


def test_undefined_names_in_order_of_first_use_without_builtins_or_what_a_pattern_binds() -> None:
    script = "import bpy\nprint(len(B), __file__)\nA = B\nmatch A:\n    case [x, *rest]:\n        print(x, rest, C)\n"
    assert undefined_names(script) == ["B", "C"]
    assert undefined_names("def f():\n    return x\n") == ["x"]
    assert undefined_names("x = (\n") == [] and undefined_names("nonlocal q\n") == []


def test_bound_anywhere_counts_statements_in_every_scope_not_parameters() -> None:
    script = "import os.path\nfrom math import pi as PI\ndef f(p):\n    local = p\n    return local\nclass K:\n    attr = 1\n"
    assert bound_anywhere(script) == {"os", "PI", "f", "local", "K", "attr"}
    assert bound_anywhere("x = (\n") is None
