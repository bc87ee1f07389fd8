"""``mousehole serve`` as installed: an optional part (``import mousehole`` loads neither it nor
aiohttp), its pages and scripts inside the package (a wheel or an sdist that lost them would
serve nothing), and its command registered. This small file also runs in CI's lighter
selections (other Pythons, the wheel); the other ``test_serve*`` files test the server."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from importlib import resources
from typing import Any

import pytest

pytestmark = pytest.mark.serve


def test_import_mousehole_does_not_import_the_server() -> None:
    code = (
        "import sys, mousehole, mousehole.serve; "
        "print(sorted(m for m in sys.modules if m.startswith(('aiohttp', 'psycopg', 'mousehole.serve.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_pages_are_in_the_package() -> None:
    static = resources.files("mousehole.serve").joinpath("static")
    for name in ("index.html", "table.html", "client.js", "lobby.js", "style.css"):
        text = static.joinpath(name).read_text(encoding="utf-8")
        assert len(text) > 200, name
    table = static.joinpath("table.html").read_text(encoding="utf-8")
    assert '<script src="/static/client.js" defer></script>' in table and "<script>" not in table


def test_the_installed_server_answers(tmp_path: Any) -> None:
    import aiohttp

    from serve_kit import served

    async def main() -> None:
        async with served(str(tmp_path)) as (hub, url), aiohttp.ClientSession() as s:
            for path in ("", "static/client.js", "api/games"):
                async with s.get(url + path) as r:
                    assert r.status == 200, path

    asyncio.run(main())


def test_the_command_is_registered() -> None:
    done = subprocess.run([sys.executable, "-m", "mousehole", "serve", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "--db URL" in done.stdout
