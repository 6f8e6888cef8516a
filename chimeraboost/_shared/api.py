"""How does a public function take its arguments, and how does an old call keep working?

One decorator, :func:`public`, gives every public function of the library the same calling
convention, the one scikit-learn uses (``log_loss(y_true, y_pred, *, sample_weight=None)``):

- the data (``y``, the predictions, ``classes``, a required threshold or time column) are
  positional; everything after them is keyword-only. A call that still passes those arguments
  by position works for one release, with a ``FutureWarning`` naming each such argument;
- a renamed keyword keeps its old spelling for one release, with a ``FutureWarning`` naming the
  new one (and a ``TypeError`` if both spellings are given);
- a keyword whose meaning changed is refused for one release, with a message saying what it
  means now, so that no old call is silently read the new way.

The function keeps its own signature (``functools.wraps``), so ``help()`` and
``inspect.signature`` show the keyword-only form.
"""

from __future__ import annotations

import functools
import warnings

__all__ = ["public"]


def public(*, legacy=(), renamed=None, refused=None):
    """Give a public function the library's calling convention, keeping old calls for a release.

    Parameters
    ----------
    legacy : tuple of str, default=()
        The keyword-only parameters that used to be positional, in their old order: extra
        positional arguments fill them in turn, each with a ``FutureWarning``.
    renamed : dict old name -> new name, default=None
        Old spellings accepted with a ``FutureWarning`` naming the new one.
    refused : dict name -> message, default=None
        Keywords refused with a ``TypeError`` carrying the message (a name whose meaning
        changed: an old call must not be read the new way).
    """
    renamed = dict(renamed or {})
    refused = dict(refused or {})

    def decorate(func):
        params, n_positional = _parameters(func)
        for name in (*legacy, *renamed.values()):
            if name not in params:
                raise AssertionError(f"{func.__qualname__} has no parameter {name!r}")
        qualname = func.__qualname__.replace(".__init__", "")

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if refused or renamed:
                kwargs = _translate(qualname, kwargs, renamed, refused)
            if len(args) > n_positional:
                args, kwargs = _move_to_keywords(qualname, args, kwargs, n_positional, legacy)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def _parameters(func) -> tuple:
    """The names of ``func``'s named parameters and how many may come by position, as
    ``inspect.signature`` gives them (through ``functools.wraps`` wrappers), read off the code
    object: the command line decorates its ``demo`` at start, and importing inspect would
    cost it a fifth of its start-up time."""
    while hasattr(func, "__wrapped__"):
        func = func.__wrapped__
    code = func.__code__
    return code.co_varnames[: code.co_argcount + code.co_kwonlyargcount], code.co_argcount


def _translate(qualname, kwargs, renamed, refused) -> dict:
    """Refuse the keywords whose meaning changed; map old spellings to the new names."""
    for name, message in refused.items():
        if name in kwargs and message is not None:
            raise TypeError(f"{qualname}(): {message}")
    for old, new in renamed.items():
        if old in kwargs:
            if new in kwargs:
                msg = (f"{qualname}() got both {old}= and {new}=; {old} is the old spelling of "
                       f"{new}: pass {new}= only.")
                raise TypeError(msg)
            warnings.warn(f"{qualname}(): {old}= is renamed {new}=; the old spelling will be "
                          f"an error in the next release.", FutureWarning, stacklevel=3)
            kwargs = {**kwargs, new: kwargs[old]}
            del kwargs[old]
    return kwargs


def _move_to_keywords(qualname, args, kwargs, n_positional, legacy):
    """Pass the arguments given by position after the data as the keywords they now are."""
    extra = args[n_positional:]
    if len(extra) > len(legacy):
        msg = (f"{qualname}() takes {n_positional} positional arguments but {len(args)} were "
               f"given; pass the arguments after the data as keywords.")
        raise TypeError(msg)
    moved = dict(zip(legacy, extra))
    for name in moved:
        if name in kwargs:
            raise TypeError(f"{qualname}() got multiple values for argument {name!r}")
    listing = ", ".join(f"{name}=..." for name in moved)
    warnings.warn(f"{qualname}(): pass {listing} as a keyword; positional use will be an "
                  f"error in the next release.", FutureWarning, stacklevel=3)
    return args[:n_positional], {**kwargs, **moved}
