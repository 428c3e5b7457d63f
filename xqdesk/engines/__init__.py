"""Engines: no Qt here; this package runs in a CLI, a child process and tests alike.

Its rooms, each allowed to import only the rooms below it (the ``layers`` contract in
``pyproject.toml``):

- :mod:`~xqdesk.engines.host`: ``python -m xqdesk.engines.host``, a hosted engine behind UCI;
- :mod:`~xqdesk.engines.zero`: the ``zero`` engine, its self-play and its training;
- :mod:`~xqdesk.engines.training`: labelled positions for the learning engines;
- :mod:`~xqdesk.engines.analysis` and :mod:`~xqdesk.engines.contests`: reviewing games with an
  engine; matches, tournaments, Elo, the SPRT, adjudication and the Ray cluster that runs batches of work;
- :mod:`~xqdesk.engines.fog`: the fog-of-war agents and their referee;
- :mod:`~xqdesk.engines.play`: the seats and the one game runner;
- :mod:`~xqdesk.engines.registry`: the engines a user has set up, one file for the window and the CLI;
- :mod:`~xqdesk.engines.spec`: how an engine is named and started;
- :mod:`~xqdesk.engines.mcts`, :mod:`~xqdesk.engines.builtin`, :mod:`~xqdesk.engines.hosted`: the
  engines that run inside a host process, and the contract they implement;
- :mod:`~xqdesk.engines.transport`: an engine process and the protocols spoken with it;
- :mod:`~xqdesk.engines.errors`, :mod:`~xqdesk.engines.search_types`: the words all of them share.
"""
