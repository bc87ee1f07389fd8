"""The loop of ``mousehole play``: one person against bots in the terminal.

:mod:`mousehole.cli` parses the options, builds the game, the bots and the seed, and hands
them to :func:`play`, which runs the game and says how it ended. What the person meets:

* **The position** is drawn from the person's view before each of their moves (:func:`view_text`):
  what the game hides from their seat stays hidden. Every game's board has a legend.
* **Moves** are typed in the game's notation; ``moves`` lists the legal ones, ``help`` prints
  the game's rules in a few lines (:meth:`Game.play_help <mousehole._api.Game.play_help>`)
  and the legal moves, ``quit`` leaves. An empty line is no move: it plays the only legal
  move where it is offered, and otherwise says what to type.
* **A forced move** (exactly one legal move) is played for the person, shown, with a pause of
  ``pause`` seconds that Enter skips (``forced="play"``, the default), or offered at the prompt,
  where Enter plays it (``forced="ask"``). The pause happens only when standard input is a
  terminal; piped moves never wait. Bots' moves, forced or not, never wait here: a bot takes
  the time it takes and its move is printed at once.
* **A settled result**: when the person's result can no longer change
  (:meth:`Game.settled <mousehole._api.Game.settled>`, read from their view), the game stops
  asking and playing and says why, with the scores as they stand; ``watch=True`` plays it to
  the end instead.
* **The end** names why the game ended in words (:meth:`Game.end_reason
  <mousehole._api.Game.end_reason>`), each seat's score and how it is made up
  (:meth:`Game.score_breakdown <mousehole._api.Game.score_breakdown>`), the winners and the
  person's result.

A move's line names its seat once: ``seat 1 (greedy): pantry +2 -> space 2``, or, where the
game's own words start with the seat, ``seat 1 (greedy) bids face down``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from .render._canvas import result_text

__all__ = [
    "PlayOptions",
    "play",
    "view_text",
    "ask",
    "pause",
    "move_line",
    "FORCED_CHOICES",
    "FORCED_PAUSE",
    "MAX_PAUSE",
]

#: ``play --forced``: ``play`` a forced move for the person (shown, with a pause Enter skips) or ``ask``
FORCED_CHOICES = ("play", "ask")
#: ``play --pause``'s default: the seconds a move played for the person stays on screen
FORCED_PAUSE = 1.5
#: the longest ``--pause``, in seconds
MAX_PAUSE = 60.0
#: how :func:`play` ends: the game is over, the person's result is settled, the person left
#: (``quit``), or the input ended (``eof``)
OUTCOMES = ("over", "settled", "quit", "eof")


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    """How :func:`play` treats the person at ``seat``: forced moves (``forced``, one of
    :data:`FORCED_CHOICES`, with ``pause`` seconds), and whether a settled result stops the
    game (``watch=False``) or not. ``labels`` names every seat in the lines printed (the
    person's ``you``, a bot's spec)."""

    seat: int
    labels: Sequence[str]
    forced: str = "play"
    pause: float = FORCED_PAUSE
    watch: bool = False


def view_text(state: Any, seat: int) -> str:
    """The position as ``seat`` sees it, made from its view ``state.to_dict(for_player=seat)``
    only: the game's own picture when nothing but the generator is hidden from the seat or
    when the game draws views; otherwise the view's fields, ``?`` standing for what is hidden."""
    full = state.to_dict()
    view = state.to_dict(for_player=seat)
    if all(full[k] == view.get(k) for k in full if k not in ("view", "rng")):
        return str(state)  # the picture never shows the generator: the seat sees all of it
    try:
        return str(state.game._render(view))
    except (TypeError, KeyError, ValueError, IndexError, AttributeError):
        pass
    lines = [f"what seat {seat} sees ('?' is hidden from it):"]
    for k, v in view.items():
        if k in ("game", "params", "view", "rng", "history"):
            continue
        lines.append(f"  {k}: " + json.dumps(v).replace("null", "?"))
    lines.append(f"  {len(view['history'])} actions played")
    return "\n".join(lines)


def _is_terminal_input() -> bool:
    return bool(getattr(sys.stdin, "isatty", lambda: False)())


def ask(prompt: str) -> Optional[str]:
    """A line from stdin after ``prompt`` (None at the end of the input). When stdin is not
    a terminal (piped moves), the line is echoed, so the output reads as a session would."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if line == "":
        return None
    if not _is_terminal_input():
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
    return line


def pause(seconds: float) -> Optional[str]:
    """Wait ``seconds``, or until the person ends a line (Enter): the line typed meanwhile
    (``""`` at the end of the input), or None when the time ran out. Only when stdin is a
    terminal: piped input is never waited for (nor read) here."""
    if seconds <= 0 or not _is_terminal_input():
        return None
    sys.stdout.flush()
    try:
        import select

        ready, _, _ = select.select([sys.stdin], [], [], seconds)
    except (OSError, ValueError, TypeError, io.UnsupportedOperation):  # no select on this stdin (Windows)
        return _pause_polling(seconds)
    return sys.stdin.readline() if ready else None


def _pause_polling(seconds: float) -> Optional[str]:
    """:func:`pause` where stdin cannot be selected: Windows' console is polled for a key."""
    try:
        import msvcrt
    except ImportError:
        time.sleep(seconds)
        return None
    key_pressed: Callable[[], bool] = getattr(msvcrt, "kbhit")  # noqa: B009  (Windows only: no stub here)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if key_pressed():
            return sys.stdin.readline()
        time.sleep(0.05)
    return None


def move_line(seat: int, label: str, text: str) -> str:
    """The line of a move: ``seat 1 (greedy): text``; where ``text`` already starts with the
    seat (``seat 1 bids face down``), the seat is named once: ``seat 1 (greedy) bids face down``."""
    own = f"seat {seat} "
    if text.startswith(own):
        return f"seat {seat} ({label}) {text[len(own) :]}"
    return f"seat {seat} ({label}): {text}"


def _legal_listing(state: Any) -> str:
    legal = [state.describe(int(x)) for x in state.legal_actions()]
    return "\n".join([f"your legal moves ({len(legal)}):"] + [f"  {m}" for m in legal])


def _person_move(state: Any, seat: int, only: Optional[int]) -> Union[int, str]:
    """Ask the person at ``seat`` until a line parses as a legal move: its action; or
    ``"eof"`` (end of input) or ``"quit"`` when the person leaves. ``only``: the one legal
    move, offered at the prompt (Enter plays it)."""
    prompt = f"seat {seat}, your move> "
    if only is not None:
        prompt = f"seat {seat}, your only move is {state.describe(only)}; Enter plays it> "
    while True:
        line = ask(prompt)
        if line is None:
            print()
            sys.stderr.write("end of input: the game is left unfinished\n")
            return "eof"
        text = line.strip()
        command = text.lower()
        if not text and only is not None:
            return only
        if not text:
            n = len(state.legal_actions())
            print(
                f"an empty line is no move: type one of your {n} legal moves ('moves' lists them, "
                "'help' explains the game)",
                flush=True,
            )
        elif command in ("help", "?"):
            rules = state.game.play_help(state, seat)
            print(
                (rules + "\n" if rules else "") + "commands: 'moves' lists your legal moves, 'help' prints this, "
                "'quit' leaves\n" + _legal_listing(state),
                flush=True,
            )
        elif command == "moves":
            print(_legal_listing(state), flush=True)
        elif command in ("quit", "exit"):
            print("you left the game")
            return "quit"
        else:
            try:
                return int(state.parse_action(text))
            except (ValueError, NotImplementedError) as e:
                print(f"not a move you can play now: {e}; type 'moves' for the legal moves", flush=True)


def _scores_head(state: Any, head: str) -> str:
    """``scores: what a score counts`` (the game's ``SCORE``)."""
    what = type(state.game).SCORE
    return f"{head}: {what}" if what else f"{head}:"


def _scores(state: Any, labels: Sequence[str]) -> List[str]:
    """A line per seat: its label and how its score is made up."""
    return [f"  seat {p} ({labels[p]}): {line}" for p, line in enumerate(state.game.score_breakdown(state))]


def _end_screen(state: Any, opts: PlayOptions) -> None:
    seat, n = opts.seat, state.game.num_players
    winners = [int(p) for p in state.winners()]
    verdict = "you won" if winners == [seat] else "you share the win" if seat in winners else "you lost"
    print()
    print(view_text(state, seat))
    print(f"game over after {len(state.history)} actions: {state.game.end_reason(state)}")
    print(_scores_head(state, "scores"))
    print("\n".join(_scores(state, opts.labels)))
    print(f"{result_text(winners, n, lambda p: f'seat {p} ({opts.labels[p]})')}: {verdict}", flush=True)


def _settled_screen(state: Any, opts: PlayOptions, won: bool, why: str) -> None:
    print()
    print(view_text(state, opts.seat))
    print(f"your result is settled after {len(state.history)} actions: {why}")
    print(_scores_head(state, "scores as they stand"))
    print("\n".join(_scores(state, opts.labels)))
    result = "you win whatever is played now" if won else "you can no longer win"
    print(f"{result}; the game stops here ('--watch' plays it to the end)", flush=True)


def _forced(state: Any, opts: PlayOptions, a: int) -> Optional[str]:
    """Play the person's only legal move ``a`` for them: shown, then a pause Enter skips.
    ``"quit"`` or ``"eof"`` when the person leaves during the pause, else None."""
    waits = opts.pause > 0 and _is_terminal_input()
    print(move_line(opts.seat, opts.labels[opts.seat], state.describe(a)))
    print(f"  (your only legal move, played for you{'; Enter goes on' if waits else ''})", flush=True)
    state.apply_action(a)
    typed = pause(opts.pause) if waits else None
    if typed == "":
        sys.stderr.write("end of input: the game is left unfinished\n")
        return "eof"
    if typed is not None and typed.strip().lower() in ("quit", "exit"):
        print("you left the game")
        return "quit"
    return None


def _person_turn(state: Any, opts: PlayOptions) -> Optional[str]:
    """The person's turn: their move applied, or ``"quit"``/``"eof"`` when they leave."""
    seat = opts.seat
    legal = state.legal_actions()
    print()
    print(view_text(state, seat), flush=True)
    only = int(legal[0]) if len(legal) == 1 else None
    if only is not None and opts.forced == "play":
        return _forced(state, opts, only)
    move = _person_move(state, seat, only)
    if isinstance(move, str):
        return move
    print(move_line(seat, opts.labels[seat], state.describe(move)), flush=True)
    state.apply_action(move)
    return None


def play(state: Any, bots: Dict[int, Any], chance: Callable[[Any], int], opts: PlayOptions) -> str:
    """Play ``state`` to its end with the person at ``opts.seat`` and ``bots[p]`` (a
    :class:`mousehole.bots.Bot`) at every other seat; ``chance(state)`` resolves an explicit
    chance node. Returns one of :data:`OUTCOMES`. The state is left where the game stopped."""
    game, seat = state.game, opts.seat
    told = False
    mover: Optional[int] = None  # the seat of the latest move, until the next turn is known
    while not state.is_terminal():
        if mover is not None and not state.is_chance_node():
            for q in game.skipped_seats(mover, state.current_player):
                print(f"seat {q} ({opts.labels[q]}) cannot move and skips the turn", flush=True)
            mover = None
        settled = game.settled(state, seat)
        if settled is not None and not opts.watch:
            _settled_screen(state, opts, *settled)
            return "settled"
        if settled is not None and not told:
            print(f"your result is settled: {settled[1]}; watching to the end", flush=True)
            told = True
        if state.is_chance_node():
            a = chance(state)
            print(f"chance: {state.describe(a)}", flush=True)
            state.apply_action(a)
            continue
        p = state.current_player
        if p != seat:
            a = int(bots[p].step(state))
            # as the person's seat sees it: a bid laid face down (MC-7), an exchange of M
            # (M-9) or the cards another hand holds (M-22, MC-26) stay unnamed
            text = state.describe(a, for_player=seat)
            state.apply_action(a)
            print(move_line(p, opts.labels[p], text), flush=True)
            mover = p
            continue
        left = _person_turn(state, opts)
        if left is not None:
            return left
        mover = seat
    _end_screen(state, opts)
    return "over"
