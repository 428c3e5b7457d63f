"""Engines that run inside a host process (:mod:`xqdesk.engines.host`): the contract they
implement (:mod:`.in_process`), the baselines, the tablebase engine, the opening book and course
players. The larger hosted engines have packages of their own (``builtin``, ``mcts``, ``zero``,
``fog``)."""
