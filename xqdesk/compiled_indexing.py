"""Array indexing without negative-index wrap-around, for the kernels that never index from the end.

numba indexes as Python does: ``a[-1]`` is the last item. So every array access by a signed integer
compiles to a test of the index's sign and a conditional add of the array's length, even where the
index is a square, a ply or a table row and cannot be negative. In the built-in engine's search,
which indexes arrays hundreds of times a node, that costs about 7% of its time.

A kernel module that never indexes an array with a negative number says so, before it defines any
compiled function, with ``index_without_wraparound(__name__)``. Its compiled functions then use a
signed index as it is — as do the functions it inlines, which must keep the same promise. A
negative index there reads outside the array; the test suite checks the promise by running the
kernels with numba's bounds checks on (``NUMBA_BOUNDSCHECK=1``), under which such an index raises
``IndexError`` instead.

numba has no option for this: the module replaces ``numba.np.arrayobj.fix_integer_index``, the
one function through which integer indices of arrays are lowered, with one that leaves the indices
of these modules' functions alone and hands every other to numba's. When a numba release no longer
has that function, nothing is replaced and indexing wraps around as before; only speed is lost.
"""
from __future__ import annotations

from typing import Any

from numba.core import types
from numba.core.itanium_mangler import mangle_identifier
from numba.np import arrayobj

_UNWRAPPED_PREFIXES: tuple[str, ...] = ()
"""The start of the mangled name of every compiled function of the modules that asked."""
_NUMBA_FIX_INTEGER_INDEX = getattr(arrayobj, "fix_integer_index", None)


def _mangled_prefix(module_name: str) -> str:
    """How numba's (Itanium) mangled function names begin for functions of ``module_name``."""
    return "_ZN" + "".join(mangle_identifier(part) for part in module_name.split("."))


def _fix_integer_index(context: Any, builder: Any, index_type: Any, index: Any, size: Any) -> Any:
    """numba's ``fix_integer_index``, without the wrap-around in the listed modules' functions."""
    if index_type.signed and builder.function.name.startswith(_UNWRAPPED_PREFIXES):
        return context.cast(builder, index, index_type, types.intp)
    assert _NUMBA_FIX_INTEGER_INDEX is not None
    return _NUMBA_FIX_INTEGER_INDEX(context, builder, index_type, index, size)


def index_without_wraparound(module_name: str) -> None:
    """Compile the functions of ``module_name`` (a module's ``__name__``) defined from now on with
    signed indices taken as they are: the module promises never to index an array with a negative
    number, in its own functions and in the ones it inlines. (A package's name would cover its
    submodules too: their functions' mangled names begin with it.)"""
    global _UNWRAPPED_PREFIXES
    if _NUMBA_FIX_INTEGER_INDEX is None:
        return
    prefix = _mangled_prefix(module_name)
    if prefix not in _UNWRAPPED_PREFIXES:
        _UNWRAPPED_PREFIXES = (*_UNWRAPPED_PREFIXES, prefix)
    arrayobj.fix_integer_index = _fix_integer_index
