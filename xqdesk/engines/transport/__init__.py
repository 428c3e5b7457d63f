"""The wire to an engine: a child process that can always be killed (:mod:`.process`, run under
:mod:`.shield` on Linux), the UCI and UCCI protocols as pure line functions (:mod:`.uci`,
:mod:`.ucci`, :mod:`.protocol`), and the engine device over both (:mod:`.uci_engine`)."""
