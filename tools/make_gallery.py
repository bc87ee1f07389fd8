"""Write the pictures of docs/gallery.md (docs/figures/gallery/*.svg) with mousehole.render.

    python tools/make_gallery.py           # (re)write the pictures
    python tools/make_gallery.py --check   # exit 1 if a picture is missing or out of date

Every picture is a position of a seeded random game (the same on every machine and engine:
``mousehole.render.svg`` draws from the state dictionary), so the files only change when the
drawing or the rules change. tests/test_render.py checks that they are up to date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import mousehole
from mousehole._rng import Rng, derive
from mousehole.render import svg

OUT = Path(__file__).resolve().parent.parent / "docs" / "figures" / "gallery"


def play(game: Any, seed: int, stop: Callable[[Any, int], bool]) -> Any:
    """Play uniformly random legal actions from ``game.new_state(seed)`` until ``stop(state,
    actions played)`` holds or the game ends."""
    s = game.new_state(seed)
    rng = Rng(derive(seed, 77))
    k = 0
    while not s.is_terminal() and not stop(s, k):
        acts = s.legal_actions()
        s.apply_action(int(acts[rng.below(len(acts))]))
        k += 1
    return s


def mc_bids(s: Any, k: int) -> bool:
    """Maus au Chocolat: a bid phase of a later round in which two seats have bid."""
    d = s.to_dict()
    return bool(d["round"] >= 4 and d["phase"] == "bid" and sum(b >= 0 for b in d["bids"]) == 2)


#: file name -> (game id, parameters, seed, where to stop, seat whose view, or None)
FIGURES: Dict[str, Tuple[str, Dict[str, Any], int, Callable[[Any, int], bool], Optional[int]]] = {
    "m.svg": ("m", {"players": 4}, 5, lambda s, k: k >= 80, None),
    "m_view.svg": ("m", {"players": 4}, 5, lambda s, k: k >= 80, -1),
    "cheese_rescue.svg": ("cheese_rescue", {"players": 4}, 5, lambda s, k: k >= 30, None),
    "cheese_rescue_end.svg": ("cheese_rescue", {"players": 4}, 5, lambda s, k: False, None),
    "kasimir.svg": ("kasimir", {"players": 4}, 5, lambda s, k: k >= 60, None),
    "maus_au_chocolat.svg": ("maus_au_chocolat", {"players": 4}, 5, mc_bids, None),
    "maus_au_chocolat_view.svg": ("maus_au_chocolat", {"players": 4}, 5, mc_bids, -1),
}


#: the seed of a game's default picture
DEFAULT_SEED = 5


def halfway(game: Any, seed: int) -> Callable[[Any, int], bool]:
    """Where a default picture stops: half the length of the same seeded random game."""
    played = [0]

    def count(s: Any, k: int) -> bool:
        played[0] = k + 1
        return False

    play(game, seed, count)
    return lambda s, k: k >= played[0] // 2


def figures() -> Dict[str, Tuple[str, Dict[str, Any], int, Callable[[Any, int], bool], Optional[int]]]:
    """``FIGURES``, and for every registered game of the package without an entry ``<id>.svg``
    its default picture: a seeded random game at its largest player count, halfway through (``halfway``),
    so that a new game needs no entry here."""
    out = dict(FIGURES)
    for game_id in mousehole.game_names():
        game = mousehole.load(game_id, engine="python")  # (every game has one; the class is the same)
        if f"{game_id}.svg" not in out and type(game).__module__ == f"mousehole.{game_id}":
            params = {"players": game.max_players}
            stop = halfway(mousehole.load(game_id, **params), DEFAULT_SEED)
            out[f"{game_id}.svg"] = (game_id, params, DEFAULT_SEED, stop, None)
    return out


def pictures() -> Dict[str, str]:
    """Every gallery file's name and SVG text. A view (-1) is the view of the seat to move."""
    out = {}
    for name, (game_id, params, seed, stop, view) in figures().items():
        s = play(mousehole.load(game_id, **params), seed, stop)
        seat = None if view is None else (s.current_player if view == -1 else view)
        out[name] = svg(s, for_player=seat)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that the files are up to date")
    ap.add_argument("--out", type=Path, default=OUT, help="folder of the pictures (default: %(default)s)")
    args = ap.parse_args(argv)
    stale = []
    for name, text in pictures().items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_bytes() != text.encode("ascii"):
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("ascii"))  # byte for byte, on every platform
        print(f"wrote {path} ({len(text)} bytes)")
    if stale:
        print("out of date (run python tools/make_gallery.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
