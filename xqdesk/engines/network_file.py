"""Reading the learning engines' files once for all: the ``.npz`` network files (the built-in
engine's ``EvalFile``, the ``zero`` engine's ``Network``) and the torch checkpoints their trainers
write beside them.

:func:`read_npz` gives a file's arrays or a :class:`~xqdesk.engines.errors.NetworkFileError`
naming it and what is wrong (missing, unreadable, not an ``.npz`` archive, a damaged member);
what the arrays must hold is each network's own business. :func:`read_checkpoint` reads a
checkpoint (torch, imported only then) with its weights only, nothing pickled.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from xqdesk.engines.errors import NetworkFileError


def read_npz(path: str | Path, where: str) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` file at ``path``; NetworkFileError starting with ``where``
    (such as ``network file 'x.npz'``) when it cannot be read as one."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            if not hasattr(data, "files"):
                raise ValueError("a single array, not an .npz archive")
            return {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise NetworkFileError(f"cannot read {where}: it does not exist") from None
    except OSError as error:
        raise NetworkFileError(f"cannot read {where}: {error.strerror or error}") from None
    except (ValueError, EOFError, KeyError) as error:  # not a zip, a truncated one, a pickled object
        detail = "" if "pickle" in str(error) else f" ({error})"  # numpy's advice to unpickle it is no help
        raise NetworkFileError(f"cannot read {where}: it is not a readable .npz file{detail}") from None
    except Exception as error:  # zipfile.BadZipFile and zlib errors of a damaged member
        raise NetworkFileError(f"{where} is damaged ({type(error).__name__}: {error})") from None


def read_checkpoint(path: str | Path, error: type[Exception] = ValueError) -> dict[str, Any]:
    """The contents of a torch checkpoint (weights only, on the CPU); ``error`` naming the file
    when it cannot be read."""
    import torch

    try:
        data = torch.load(Path(path), map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, EOFError, ValueError) as problem:
        raise error(f"cannot read checkpoint {str(path)!r}: {problem}") from None
    if not isinstance(data, dict):
        raise error(f"cannot read checkpoint {str(path)!r}: it holds {type(data).__name__}, not a checkpoint")
    return data


__all__ = ["read_checkpoint", "read_npz"]
