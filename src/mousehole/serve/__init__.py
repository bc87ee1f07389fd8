"""``mousehole serve``: the four games at a table in the browser, each seat seeing only its
own view (``docs/serve.md``).

An optional part of the package: it needs the ``serve`` extra (aiohttp; psycopg for
PostgreSQL), installed from a clone with ``pip install --no-build-isolation '.[serve]'``.
``import mousehole`` never imports it, and importing this package does not import aiohttp
either: :mod:`mousehole.serve.server` does.

The parts, each a module of its own:

* :mod:`~mousehole.serve.tables`: a table's settings (checked as hostile input), its
  position and log, whose decisions are pending, what each seat and spectator is shown;
* :mod:`~mousehole.serve.views`: the public view a spectator sees, and its picture;
* :mod:`~mousehole.serve.storage`: SQLite or PostgreSQL, every move committed before anyone
  hears of it;
* :mod:`~mousehole.serve.hub`: the tables of a server process, the bots, the other processes;
* :mod:`~mousehole.serve.protocol`: the WebSocket messages and their limits;
* :mod:`~mousehole.serve.server`: the aiohttp application;
* :mod:`~mousehole.serve.cli`: the ``mousehole serve`` command.
"""

from __future__ import annotations

__all__ = ["EXTRA"]

#: the pip extra this package needs
EXTRA = "serve"
