"""The ``zero`` engine (PUCT search guided by a policy/value network, played with numpy) and its
training pipeline (torch, optional: ``pip install xqdesk[train]``)."""
