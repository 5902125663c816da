"""``plunder serve``: the web app."""

from __future__ import annotations

import click

from ..web.app import default_db_url, serve
from ..web.front import HOSTS_VARIABLE, PROXIES_VARIABLE, Front, FrontError
from ..web.rooms import creator_gone_seconds
from ..web.store import check as check_db
from ..web.tables import transport_name


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="port to listen on")
@click.option("--db", "db_url", default=None,
              help="database URL: sqlite:///PATH or postgresql://... (default: a SQLite file in the user's data folder)")
@click.option("--trusted-proxy", "proxies", multiple=True, metavar="ADDR",
              help=f"a reverse proxy's address or network whose X-Forwarded-For / Forwarded headers are believed "
                   f"(repeatable; also ${PROXIES_VARIABLE}, comma-separated; default: none)")
@click.option("--site-host", "site_hosts", multiple=True, metavar="NAME",
              help=f"a name the site is reached by; requests sent to any other Host are refused (repeatable; also "
                   f"${HOSTS_VARIABLE}; default: localhost, 127.0.0.1, [::1] and --host)")
def serve_cmd(host: str, port: int, db_url: str | None, proxies: tuple[str, ...], site_hosts: tuple[str, ...]) -> None:
    """Play in the browser: serve the web app on http://HOST:PORT (every installed game, against the AI,
    hotseat and online)."""
    try:
        front = Front.configured(proxies, site_hosts, host)
    except FrontError as exc:
        raise click.BadParameter(str(exc)) from None
    check_db(db_url or default_db_url())  # a database that cannot be used is refused before the server starts
    creator_gone_seconds()  # and so is a lobby setting that cannot be read
    click.echo(f"Plunder is being served on http://{host}:{port}/ (Ctrl-C stops it)")
    click.echo(f"Live events: {transport_name(db_url or default_db_url())}")
    serve(host, port, db_url, front)
