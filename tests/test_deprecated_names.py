"""The old names of issue 40's renames: each still works, warns with a ``DeprecationWarning``
naming its new name, and gives what the new name gives (docs/changelog.md, Deprecated: kept
until the next minor version)."""

from __future__ import annotations

import warnings

import pytest

import mousehole

#: (game, old attribute, new attribute)
ATTRIBUTES = [
    ("cheese_rescue", "N", "square_size"),
    ("cheese_rescue", "G", "grid_size"),
    ("cheese_rescue", "C", "num_cells"),
    ("cheese_rescue", "K", "num_cheese_kinds"),
    ("kasimir", "L", "track_length"),
    ("kasimir", "D", "max_distance"),
    ("kasimir", "P", "num_move_actions"),
    ("m", "H", "hand_size"),
]


@pytest.mark.parametrize("name,old,new", ATTRIBUTES)
def test_old_attribute_warns_and_reads_the_new_one(name: str, old: str, new: str) -> None:
    game = mousehole.load(name, players=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name itself does not warn
        value = getattr(game, new)
    assert isinstance(value, int) and value > 0
    with pytest.warns(DeprecationWarning, match=rf"\.{old} is deprecated .*use \w+\.{new}$"):
        assert getattr(game, old) == value
    # the class attribute is the alias (what help() lists), not a value
    assert repr(getattr(type(game), old)) == f"DeprecatedAlias({new!r})"


@pytest.mark.compiled
def test_mcore_is_the_old_name_of_mgamecore() -> None:
    from mousehole import _m

    with pytest.warns(DeprecationWarning, match=r"mousehole\._m\.MCore is deprecated .*MGameCore"):
        old = _m.MCore
    assert old is _m.MGameCore
    assert isinstance(mousehole.load("m", engine="compiled").new_state(seed=1), old)
    with pytest.raises(AttributeError, match="no attribute 'MCoreX'"):
        _m.MCoreX  # noqa: B018 (any other missing name is still an AttributeError)
