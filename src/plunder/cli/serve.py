"""``plunder serve``: the web app."""

from __future__ import annotations

import click

from ..web.app import default_db_url, serve
from ..web.rooms import creator_gone_seconds
from ..web.store import check as check_db
from ..web.tables import transport_name


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="port to listen on")
@click.option("--db", "db_url", default=None,
              help="database URL: sqlite:///PATH or postgresql://... (default: a SQLite file in the user's data folder)")
def serve_cmd(host: str, port: int, db_url: str | None) -> None:
    """Play in the browser: serve the web app on http://HOST:PORT (every installed game, against the AI,
    hotseat and online)."""
    check_db(db_url or default_db_url())  # a database that cannot be used is refused before the server starts
    creator_gone_seconds()  # and so is a lobby setting that cannot be read
    click.echo(f"Plunder is being served on http://{host}:{port}/ (Ctrl-C stops it)")
    click.echo(f"Live events: {transport_name(db_url or default_db_url())}")
    serve(host, port, db_url)
