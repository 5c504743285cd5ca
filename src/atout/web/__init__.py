"""The web table: play belote in the browser with friends and bots (``pip install 'atout[web]'``).

``atout serve`` starts it on 127.0.0.1 with an embedded SQLite database in the
user's data directory; ``--database-url`` runs the same app on PostgreSQL. See
``docs/web.md`` for hosting, the protocol and the design.
"""
