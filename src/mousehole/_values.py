"""Values from outside: one rule for every value that enters mousehole (``docs/api.md``, Bounds).

Every way a game parameter comes in (``mousehole.load``, ``--param`` on the command line,
a game record, an OpenSpiel game string or ``load_game``, ``gymnasium.make``,
``pettingzoo.env``) ends in ``Game.__init__``, which passes each value through
:func:`plain_value` before any game looks at it: numpy scalars become Python values,
subclasses of ``str``, ``int`` and ``float`` (``numpy.str_`` and ``numpy.float64`` are such)
become the exact built-in type (so that a subclass with its own ``==`` cannot pass a check
it does not meet), tuples become lists, and anything that is not plain data (``None``, a
bool, an int, a float, a str, lists and dicts of them) is refused, as are values nested,
sized or written beyond what a game record holds. So whatever ``load`` accepts, a record
holds, and ``repr(game)``, ``game.params`` and ``state.to_dict()`` stay plain data.

The bounds are shared: :mod:`mousehole.records` reads records within the same numbers, and
the command line, ``mousehole bench`` and the renderer use the same :func:`read_json` and
:func:`shorten`. Messages quote a value through :func:`shorten`: at most :data:`SHOWN`
characters of it, on one line, whatever its size, depth or type.

This module imports nothing of mousehole: ``_api`` (and everything above it) builds on it.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import re
import reprlib
import warnings
from typing import Any, Callable, Dict, List, NoReturn, Optional, Tuple, Union

import numpy as np

__all__ = [
    "MAX_TURNS",
    "MAX_DEPTH",
    "MAX_VALUE_DEPTH",
    "MAX_STRING",
    "MAX_ITEMS",
    "MAX_KEYS",
    "MAX_TEXT",
    "MIN_NUMBER",
    "MAX_NUMBER",
    "SHOWN",
    "shorten",
    "clip",
    "escape",
    "exact",
    "word",
    "plain_value",
    "json_depth",
    "read_json",
    "DeprecatedAlias",
    "warn_deprecated",
]

# --------------------------------------------------------------------------------------
# the bounds (docs/api.md, Bounds; records.py and record.schema.json state the same numbers)

#: the largest ``max_turns`` of every game (``load``, ``--param``, records, OpenSpiel)
MAX_TURNS = 1_000_000
#: the deepest nesting of arrays and objects in a JSON text read (a record is depth 1)
MAX_DEPTH = 32
#: the deepest nesting of lists and dicts in a parameter value: a record's params sit two
#: levels down (the record, its ``params``)
MAX_VALUE_DEPTH = MAX_DEPTH - 2
#: the most characters of a string in a parameter value (and of any string of a record's
#: params, start and meta)
MAX_STRING = 1_000
#: the most items of a list in a parameter value (and of an array of a record)
MAX_ITEMS = 100_000
#: the most keys of a dict in a parameter value (and of an object of a record)
MAX_KEYS = 1_000
#: the most characters of a move's readable text, a seat name or a date in a record
MAX_TEXT = 200
#: every number of a record lies in [MIN_NUMBER, MAX_NUMBER]
MIN_NUMBER = -(2**63)
MAX_NUMBER = 2**64 - 1
#: the most characters of a value quoted in an error message
SHOWN = 60


# --------------------------------------------------------------------------------------
# messages


def escape(text: str) -> str:
    """``text`` with every character that is not printable (line breaks, escape, lone
    surrogates, ...) written as a ``\\x..``/``\\u....`` escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def clip(text: str, limit: int = 199) -> str:
    """``text`` on one line of at most ``limit`` characters (control characters escaped,
    ``...`` where it was cut)."""
    if len(text) > 4 * limit + 16:  # (an escape is at most 6 characters for 1: cut first)
        text = text[: 4 * limit + 16]
    text = escape(text)
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


class _Short(reprlib.Repr):
    """``reprlib`` with the limits of :func:`shorten`: a few items of a container, a few
    levels deep, strings and ints cut to a prefix before their repr is built."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxdict = 4
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdeque = self.maxarray = 8
        self.maxother = self.maxlong = max(limit, 8)
        self.maxstring = max(limit - 6, 4)  # (the quotes and the "..." fit in the limit)

    def repr_str(self, x: str, level: int) -> str:
        text = repr(x[: self.maxstring])
        return text if len(x) <= self.maxstring else text[:-1] + "..." + text[-1]

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() <= 3 * self.maxlong:  # (a repr of at most about maxlong digits)
            return repr(x)
        digits = int(x.bit_length() * math.log10(2)) + 1
        return f"<an int of about {digits:,} digits>"

    def repr_instance(self, x: Any, level: int) -> str:
        y = exact(x)
        if y is not x:  # a numpy scalar or a str/int/float subclass: its plain value
            return self.repr1(y, level)
        return str(super().repr_instance(x, level))


def shorten(x: Any, limit: int = SHOWN) -> str:
    """A one-line picture of value ``x`` for a message, at most ``limit`` characters: its
    ``repr`` with long strings, big ints, long or deep containers cut (``...``) before
    anything large is built, and control characters escaped. The one way every message of
    mousehole quotes a value it refuses.

    >>> shorten("x" * 10**6, 12)
    "'xxxxxx...'"
    >>> shorten(10**5000)
    '<an int of about 5,001 digits>'
    """
    t = type(x)
    # the common cases first: messages are often built whether or not they are raised
    if (t is int and x.bit_length() <= 64) or t is bool or x is None or t is float:
        text = repr(x)
        if len(text) <= limit:
            return text
    elif t is str and len(x) <= limit - 6:
        text = repr(x)
        if len(text) <= limit and text.isprintable():
            return text
    try:
        text = _Short(limit).repr(x)
    except Exception:  # (a repr that raises: reprlib catches most, never all)
        text = f"<{type(x).__name__}>"
    return clip(text, limit)


# --------------------------------------------------------------------------------------
# integers: the one rule for what counts as an int; every check of the package reads it
# through one of these four. A bool (Python's or numpy's) is never an int, a float never
# one (not even 1.0), a digit of another script never an ASCII digit. The four differ only
# in where the value comes from:
#
# - :func:`is_int`: plain data (JSON, a record, a network message, a state dict, a move's
#   field): an ``int`` (a subclass too), not a bool; a numpy integer is not plain data;
# - :func:`as_int`: an option of the API (a count, a seed, a budget): an ``int`` or a numpy
#   integer, else None (the caller names the option in its own message);
# - :func:`index_arg`: a seat, index or action argument: anything with ``__index__``, else a
#   ``TypeError`` naming it;
# - :func:`int_text`: a number typed as text (the command lines): ASCII digits, one sign.


def is_int(x: Any) -> bool:
    """True for an int that is not a bool."""
    return isinstance(x, int) and not isinstance(x, bool)


def as_int(x: Any) -> Optional[int]:
    """``x`` as a Python int when it is an integer (``int`` or a numpy integer, never a
    bool), else None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    return None


def index_arg(x: Any, what: str, hint: str = "") -> int:
    """``x`` as a Python int when it is an integer (an ``int``, a numpy integer or anything
    with ``__index__``), else ``TypeError``: "``what`` must be an int``hint``, not ``type``"
    (a bool, Python's or numpy's, is never an int, a float never an index, even ``1.0``).
    The one rule for every seat, index and action argument of the API (``docs/api.md``,
    Errors)."""
    if type(x) is int:  # the common case, first
        return x
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{what} must be an int{hint}, not bool")
    try:
        v = operator.index(x)
    except TypeError:
        raise TypeError(f"{what} must be an int{hint}, not {type(x).__name__}") from None
    return v if type(v) is int else int.__int__(v)  # (Python 3.9 gives an int subclass back as it is)


def int_in(x: Any, what: str, lo: int, hi: int, hi_text: str = "") -> int:
    """:func:`index_arg` of ``x`` within ``lo..hi``: else ``ValueError`` "``what`` must be
    from ``lo`` to ``hi`` (or ``hi_text``), got ``x``"."""
    v = index_arg(x, what)
    if not lo <= v <= hi:
        raise ValueError(f"{what} must be from {lo} to {hi_text or hi}, got {v}")
    return v


#: the longest integer a command line reads (a seed is at most 20 digits)
MAX_INT_TEXT = 40


def ascii_digits(text: str) -> bool:
    """True when ``text`` is one or more ASCII digits and nothing else (``str.isdigit`` is
    true of "²" and "٣", and ``int()`` reads every script's digits, underscores and spaces)."""
    return text.isascii() and text.isdigit()


def int_text(text: str, what: str = "an integer") -> int:
    """Typed ``text`` (white space around it allowed) as an int: ASCII digits with at most
    one leading sign, at most :data:`MAX_INT_TEXT` characters. Else ``ValueError`` saying
    "expected ``what``", why, and quoting a bounded prefix of ``text``.

    >>> int_text(" +42 "), int_text("-7")
    (42, -7)
    """
    t = text.strip()
    if not t.isascii():  # int() would read other scripts' digits ("\u0663" is 3)
        raise ValueError(f"expected {what} in ASCII digits, got {shorten(text, 40)}")
    if len(t) > MAX_INT_TEXT:
        raise ValueError(f"expected {what} of at most {MAX_INT_TEXT} characters, got {len(t):,} characters")
    if not ascii_digits(t[1:] if t[:1] in ("+", "-") else t):
        raise ValueError(f"expected {what}, got {shorten(text, 40)}")
    return int(t)


# --------------------------------------------------------------------------------------
# values


_PLAIN = (type(None), bool, int, float, str)


def exact(x: Any) -> Any:
    """Scalar ``x`` as a value of an exact built-in type: a numpy bool, integer, float or
    str scalar as Python's, a subclass of ``str``, ``int`` or ``float`` as the built-in value
    it holds (read through the built-in type, never through the subclass's methods).
    Anything else is returned unchanged."""
    t = type(x)
    if t in _PLAIN:
        return x
    if isinstance(x, np.generic):
        if isinstance(x, np.bool_):
            return bool(x)
        if isinstance(x, np.integer):
            return int(x)
        if isinstance(x, np.floating):
            return float(x)
        if isinstance(x, np.str_):
            return str.__str__(x)
        return x
    if isinstance(x, str):
        return str.__str__(x)
    if is_int(x):
        return int.__int__(x)
    if isinstance(x, float):
        return float.__float__(x)
    return x


def word(x: Any, allowed: Tuple[str, ...]) -> Optional[str]:
    """Option ``x`` as the exact ``str`` it holds (:func:`exact`: a numpy str, a subclass's
    value) when that is one of ``allowed``, else None: how an option that names one of a few
    words is read (a subclass's own ``==`` never decides).

    >>> word("ansi", ("human", "ansi")), word(["ansi"], ("human", "ansi"))
    ('ansi', None)
    """
    y = exact(x)
    return y if type(y) is str and y in allowed else None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(s: str, where: str, error: Callable[[str], Exception]) -> None:
    if len(s) > MAX_STRING:
        raise error(f"{where}: a string of at most {MAX_STRING:,} characters, got {len(s):,} ({shorten(s, 24)})")
    if not s.isascii() and _SURROGATE.search(s):
        raise error(f"{where}: a lone surrogate is not text ({shorten(s, 24)})")


def plain_value(x: Any, what: str, error: Callable[[str], Exception] = ValueError) -> Any:
    """Parameter value ``x`` as plain data: ``None``, a bool, an int, a finite float, a str,
    or a list or dict (str keys) of such, with :func:`exact` applied to every scalar and
    every list, tuple or 1-d numpy array read as a list (subclasses through the built-in
    type). Raises ``error(message)`` naming ``what`` (and the place inside it) for anything
    else, a string longer than :data:`MAX_STRING` or with a lone surrogate, a non-finite
    float, a list longer than :data:`MAX_ITEMS`, a dict with more than :data:`MAX_KEYS` keys
    or a value nested deeper than :data:`MAX_VALUE_DEPTH`. Iterative: no value can exhaust
    the stack, and nothing is read past the first fault."""
    t = type(x)
    if t is int or t is bool or x is None:  # the common cases, first
        return x
    if t is str:
        _check_text(x, what, error)
        return x
    out: List[Any] = [None]
    stack: List[Tuple[Any, Any, Any, str, int]] = [(x, out, 0, what, 0)]
    while stack:
        v, box, key, where, depth = stack.pop()
        if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "biufU":
            v = v.item()  # a 0-d array: its scalar
        v = exact(v)
        t = type(v)
        if t is str:
            _check_text(v, where, error)
        elif t is float:
            if not math.isfinite(v):
                raise error(f"{where}: not a finite number ({v!r})")
        elif t in _PLAIN:
            pass
        elif isinstance(v, (list, tuple, np.ndarray, dict)):
            if depth >= MAX_VALUE_DEPTH:
                raise error(f"{what}: nested too deeply (lists and dicts at most {MAX_VALUE_DEPTH} deep)")
            if isinstance(v, dict):
                v = _plain_dict(v, where, depth, stack, error)
            else:
                v = _plain_list(v, where, depth, stack, error)
        else:
            raise error(
                f"{where}: {type(v).__name__} is not a plain value (a parameter is None, a bool, an int, "
                f"a float, a str, or a list or dict of them; got {shorten(v, 40)})"
            )
        box[key] = v
    return out[0]


def _plain_list(
    v: Any, where: str, depth: int, stack: List[Tuple[Any, Any, Any, str, int]], error: Callable[[str], Exception]
) -> List[Any]:
    """A list, tuple (or a subclass: read as the built-in type) or numeric / str numpy array
    as a new list whose items :func:`plain_value` then converts (pushed on ``stack``)."""
    if isinstance(v, np.ndarray):
        if v.dtype.kind not in "biufU" or v.ndim > MAX_VALUE_DEPTH - depth or v.size > MAX_ITEMS:
            raise error(
                f"{where}: a numpy array of {v.dtype} with shape {v.shape} is not a plain value "
                "(numbers or str, within the bounds of a list)"
            )
        items: List[Any] = v.tolist()
    else:
        size = list.__len__(v) if isinstance(v, list) else tuple.__len__(v)
        if size > MAX_ITEMS:
            raise error(f"{where}: a list of at most {MAX_ITEMS:,} items, got {size:,}")
        items = list(list.__iter__(v) if isinstance(v, list) else tuple.__iter__(v))
    for i in range(len(items) - 1, -1, -1):
        item = items[i]
        if type(item) is not int:  # (ints are plain already: most items of most lists)
            stack.append((item, items, i, f"{where}[{i}]", depth + 1))
    return items


def _plain_dict(
    v: Dict[Any, Any],
    where: str,
    depth: int,
    stack: List[Tuple[Any, Any, Any, str, int]],
    error: Callable[[str], Exception],
) -> Dict[str, Any]:
    """A dict (or a subclass, read as a dict) with str keys as a new dict whose values
    :func:`plain_value` then converts (pushed on ``stack``)."""
    if dict.__len__(v) > MAX_KEYS:
        raise error(f"{where}: a dict of at most {MAX_KEYS:,} keys, got {dict.__len__(v):,}")
    out: Dict[str, Any] = {}
    for k, item in list(dict.items(v)):
        key = exact(k)
        if type(key) is not str:
            raise error(f"{where}: the keys of a dict are strings, got {shorten(k, 40)}")
        _check_text(key, f"{where} key", error)
        if key in out:  # (two subclass keys holding one string)
            raise error(f"{where}: the key {shorten(key, 40)} is given twice")
        out[key] = item
    for key in reversed(list(out)):
        shown = repr(key) if len(key) <= 24 else shorten(key, 24)
        stack.append((out[key], out, key, f"{where}[{shown}]", depth + 1))
    return out


# --------------------------------------------------------------------------------------
# JSON text within bounds


class _Refused(Exception):
    """Raised from inside the JSON parser's hooks (turned into the caller's error)."""


def _pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: "set[str]" = set()
        for k, _ in pairs:
            if k in seen:
                raise _Refused(f"duplicate key {shorten(k, 40)} in an object")
            seen.add(k)
    return d


def _constant(name: str) -> NoReturn:
    raise _Refused(f"{name} is not a JSON number")


_MAX_DIGITS = 20  # len(str(2**64 - 1)) and len(str(2**63))


def _int(text: str) -> int:
    if len(text) - text.startswith("-") > _MAX_DIGITS:
        raise _Refused(f"integer with more than {_MAX_DIGITS} digits ({shorten(text, 24)})")
    return int(text)


def _float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise _Refused(f"number too large for a double ({shorten(text, 24)})")
    return x


#: a JSON string; one that is not closed runs to the end of the text, so that a scan is
#: linear (an unclosed string is a JSON error the parser then reports)
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets outside strings),
    found without recursion and without parsing: what to check before a parser, which
    recurses, sees the text."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    if not brackets:
        return 0
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)))


def read_json(
    data: Union[str, bytes, bytearray],
    *,
    max_bytes: int,
    max_depth: int = MAX_DEPTH,
    what: str = "the text",
    error: Callable[[str], Exception] = ValueError,
) -> Any:
    """JSON ``data`` (text, or UTF-8 bytes) as Python data, or ``error(message)`` with a
    one-line message of under 200 characters: at most ``max_bytes`` bytes of UTF-8 (no lone
    surrogate), one JSON value in standard JSON (no ``NaN`` or ``Infinity``, no key twice in
    an object), arrays and objects nested at most ``max_depth`` deep (checked before parsing),
    integers of at most 20 digits. ``what`` names the text in messages (``"a record"``)."""

    def fail(message: str) -> NoReturn:
        raise error(clip(message))

    if isinstance(data, (bytes, bytearray)):
        if len(data) > max_bytes:
            fail(f"too large: {what} is at most {max_bytes:,} bytes, got {len(data):,}")
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            fail(f"not UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start} ({e.reason})")
    elif isinstance(data, str):
        text = data
        if len(text) > max_bytes:
            fail(f"too large: {what} is at most {max_bytes:,} bytes, got {len(text):,} characters")
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError as e:
            fail(f"not UTF-8 text: lone surrogate U+{ord(text[e.start]):04X} at character {e.start}")
        if size > max_bytes:
            fail(f"too large: {what} is at most {max_bytes:,} bytes, got {size:,}")
    else:
        raise TypeError(f"{what} is JSON text (str or UTF-8 bytes), not {type(data).__name__}")
    depth = json_depth(text)
    if depth > max_depth:
        fail(f"nested too deeply: arrays and objects at most {max_depth} deep, got {depth}")
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _Refused as e:
        fail(str(e))
    except json.JSONDecodeError as e:
        fail(f"not JSON: {e.msg} (line {e.lineno}, column {e.colno})")
    except (ValueError, RecursionError) as e:  # (never seen: the depth is checked above)
        fail(f"not JSON: {e}")


# --------------------------------------------------------------------------------------
# old names kept for one minor version (docs/changelog.md says which, and until when)


def warn_deprecated(old: str, new: str, stacklevel: int = 3) -> None:
    """The ``DeprecationWarning`` of an old name: ``old`` is deprecated, use ``new``."""
    warnings.warn(
        f"{old} is deprecated and will be removed in the next minor version: use {new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


class DeprecatedAlias:
    """A class attribute that is an old name of attribute ``new``: reading it on an instance
    warns (:func:`warn_deprecated`) and gives ``new``'s value. On the class itself it is this
    descriptor (what ``help()`` shows)."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.old = new
        self.owner = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = name
        self.owner = owner.__name__

    def __get__(self, obj: Any, objtype: Optional[type] = None) -> Any:
        if obj is None:
            return self
        warn_deprecated(f"{self.owner}.{self.old}", f"{self.owner}.{self.new}")
        return getattr(obj, self.new)

    def __repr__(self) -> str:
        return f"DeprecatedAlias({self.new!r})"
