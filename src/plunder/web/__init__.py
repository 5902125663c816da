"""The web app (``plunder serve``): the games in the browser, an adapter over the same API as
the terminal. The server checks every action; the browser only shows the game's SVG picture
and sends the action texts its elements carry (``data-action``).

Modules: :mod:`.app` builds the ASGI app and runs it under uvicorn; :mod:`.pages` holds the
pages that need no game in progress (home, rules); :mod:`.templating` the HTML templates.
"""
