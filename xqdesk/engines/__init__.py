"""Engines: the UCI protocol, engine processes, the in-process engines they host, course players,
the referee, matches and tournaments. No Qt here; this package runs in a CLI, a child process and
tests alike.
"""
