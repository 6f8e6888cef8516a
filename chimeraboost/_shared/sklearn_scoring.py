"""Which scikit-learn internals does chimeraboost lean on to serve its scoring strings, and
what still works when a future scikit-learn moves them?

scikit-learn has no public way to add a scoring string, so registering ``"brier_skill"`` and
friends needs three of its private objects. This module is the only place chimeraboost touches
them; :mod:`chimeraboost.scorers` imports what it needs from here.

- Where is the dict behind ``get_scorer`` and ``get_scorer_names``
  (``sklearn.metrics._scorer._SCORERS``)? :func:`scorer_registry`.
- Which sets of valid scoring strings has parameter validation already built? scikit-learn
  builds ``StrOptions(set(get_scorer_names()))`` when ``cross_validate``, the searches, the
  curves... are imported, so names registered later must be added to those sets in place:
  :func:`scoring_name_sets`.
- Which base class gives a scorer ``set_score_request``, metadata routing and the shared
  prediction cache of multi-metric scoring (``sklearn.metrics._scorer._BaseScorer``)?
  :data:`ScorerBase`.
- Did any of this move in the installed scikit-learn? :func:`integration_problems`.
- How do the scoring strings work after ``import chimeraboost`` without that import loading
  scikit-learn (the command line answers ``--help`` before loading it)? :func:`serve_lazily`
  puts a :class:`LazyScorer` under each name in scikit-learn's dict, at once if scikit-learn's
  scorer module is loaded, else the moment it is; the first use of an entry builds the real
  scorer, and importing :mod:`chimeraboost.scorers` replaces the entries by the real scorers.

When an internal moves, nothing crashes: :func:`scorer_registry` raises a ``RuntimeError``
that ``chimeraboost.scorers.register`` turns into a warning naming what moved, and
:data:`ScorerBase` falls back to :class:`FallbackScorerBase`, which speaks scikit-learn's
scorer protocol through public API only, so weights still reach the scorers through metadata
routing. ``tests/test_scorers.py`` fails with a readable message if the installed scikit-learn
no longer matches, and exercises the fallback by hiding ``_BaseScorer``.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Mapping

__all__ = [
    "FallbackScorerBase",
    "LazyScorer",
    "ScorerBase",
    "integration_problems",
    "scorer_base",
    "scorer_registry",
    "scoring_name_sets",
    "serve_lazily",
    "string_option_sets",
]

# The module that holds scikit-learn's dict of named scorers.
SCORER_MODULE = "sklearn.metrics._scorer"

# Names every scikit-learn since 1.0 has registered: a set of strings holding all of them is a
# set of scoring names, whatever else it holds.
SENTINEL_NAMES = frozenset({"accuracy", "roc_auc", "neg_log_loss", "r2", "neg_mean_squared_error"})

INTERNALS_HELP = (
    "chimeraboost.scorers relies on scikit-learn internals that scikit-learn {version} does not "
    "provide as expected: {problem}. The scorer objects (chimeraboost.scorers.brier_skill_scorer, "
    "...) may still be passed as scoring=..., but the scoring strings cannot be registered. "
    "Please report this with your scikit-learn version."
)


def internals_error(problem: str) -> str:
    import sklearn

    return INTERNALS_HELP.format(version=sklearn.__version__, problem=problem)


def scorer_registry() -> dict:
    """scikit-learn's dict of named scorers, or RuntimeError saying what moved."""
    try:
        from sklearn.metrics import _scorer
    except ImportError as exc:  # pragma: no cover - future scikit-learn
        raise RuntimeError(internals_error(f"sklearn.metrics._scorer is gone ({exc})")) from exc
    registry = getattr(_scorer, "_SCORERS", None)
    if not isinstance(registry, dict) or not SENTINEL_NAMES <= registry.keys():
        msg = internals_error("sklearn.metrics._scorer._SCORERS is no longer the scorer dict")
        raise RuntimeError(msg)
    from sklearn.metrics import get_scorer_names

    # Adding to a dict that get_scorer_names() no longer reads would register nothing.
    if "accuracy" not in get_scorer_names() or get_scorer_names() != sorted(registry):
        msg = internals_error("get_scorer_names() no longer reads _SCORERS")
        raise RuntimeError(msg)
    return registry


def scoring_name_sets() -> list[set]:
    """The sets of valid scoring strings built by the scikit-learn modules imported so far.

    Reached through the handles parameter validation leaves behind:
    ``func._skl_parameter_constraints`` (set by ``validate_params``) and
    ``cls._parameter_constraints``.
    """
    found: dict[int, set] = {}
    for mod_name, module in list(sys.modules.items()):
        if module is None or not (mod_name == "sklearn" or mod_name.startswith("sklearn.")):
            continue
        for obj in list(vars(module).values()):
            own = getattr(obj, "__dict__", None)
            if not isinstance(own, Mapping):
                continue
            # own attributes only: classes share their parents' constraint lists anyway.
            for attr in ("_skl_parameter_constraints", "_parameter_constraints"):
                constraints = own.get(attr)
                if isinstance(constraints, dict):
                    for options in string_option_sets(constraints):
                        found[id(options)] = options
    return list(found.values())


def string_option_sets(constraints: dict):
    """The ``StrOptions`` sets in one constraint dict that hold scoring names."""
    for allowed in constraints.values():
        if not isinstance(allowed, list):  # e.g. "no_validation"
            continue
        for constraint in allowed:
            options = getattr(constraint, "options", None)
            if isinstance(options, set) and SENTINEL_NAMES <= options:
                yield options


def scorer_base():
    """scikit-learn's ``_BaseScorer`` if it still offers what our scorers use, else None."""
    try:
        from sklearn.metrics._scorer import _BaseScorer, _Scorer
    except ImportError:
        return None
    # Our subclass overrides ``_score(method_caller, estimator, X, y_true, **kwargs)``, which
    # the base's ``__call__`` and the multi-metric scorer call; ``_Scorer`` implements it too.
    needed = ("set_score_request", "_get_metadata_request", "_accept_sample_weight")
    if not all(hasattr(_BaseScorer, a) for a in needed) or not hasattr(_Scorer, "_score"):
        return None
    return _BaseScorer


class FallbackScorerBase:
    """scikit-learn's scorer protocol from public API only, used if ``_BaseScorer`` moves.

    scikit-learn accepts any callable ``scorer(estimator, X, y, **metadata)`` as a scorer. What
    it asks of one beyond that is ``get_metadata_routing()`` when metadata routing is on
    (read by ``sklearn.utils.metadata_routing.get_routing_for_object``, which decides whether
    ``sample_weight`` reaches the scorer) and ``_accept_sample_weight()`` when it is off (read
    by the multi-metric scorer). Without the first, routing would silently drop the weights
    or reject them; so the request is kept here, in scikit-learn's public
    ``MetadataRequest``, and set by ``set_score_request`` exactly as on scikit-learn's scorers.

    The subclass implements ``_score(method_caller, estimator, X, y_true, **kwargs)``.
    """

    def __init__(self, score_func, sign, kwargs, response_method):
        self._score_func = score_func
        self._sign = sign
        self._kwargs = kwargs
        self._response_method = response_method
        # None is scikit-learn's default request: weights passed through routing without an
        # explicit set_score_request raise, rather than being dropped or used unasked.
        self._sample_weight_request = None

    def __call__(self, estimator, X, y_true, **kwargs):
        # No prediction cache to share: the subclass calls the estimator itself.
        return self._score(None, estimator, X, y_true, **kwargs)

    def _accept_sample_weight(self):
        # Asked by scikit-learn's multi-metric scorer when routing is off, to decide whether
        # to pass sample_weight on; ours always take it.
        return True

    def set_score_request(self, *, sample_weight=None):
        """Request ``sample_weight`` under metadata routing, as on scikit-learn's scorers.

        Parameters
        ----------
        sample_weight : bool, None or str, default=None
            True: route ``sample_weight`` to this scorer; False: do not; None: raise if it
            is passed; a string: route the metadata of that name as ``sample_weight``.

        Returns
        -------
        self
        """
        import sklearn

        if not sklearn.get_config().get("enable_metadata_routing", False):
            msg = (
                "This method is only available when metadata routing is enabled. You can "
                "enable it using sklearn.set_config(enable_metadata_routing=True)."
            )
            raise RuntimeError(msg)
        self._sample_weight_request = sample_weight
        return self

    def get_metadata_routing(self):
        """The metadata this scorer's ``score`` consumes: ``sample_weight``, as requested."""
        from sklearn.utils.metadata_routing import MetadataRequest

        request = MetadataRequest(owner=self)
        request.score.add_request(param="sample_weight", alias=self._sample_weight_request)
        return request


def __getattr__(name):
    # ScorerBase is looked up when chimeraboost.scorers defines its scorer class, not when
    # this module loads: serve_lazily must not load scikit-learn.
    if name == "ScorerBase":
        base = globals()["ScorerBase"] = scorer_base() or FallbackScorerBase
        return base
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


class LazyScorer:
    """An entry of scikit-learn's scorer dict that builds chimeraboost's scorer when used.

    ``build(name)`` returns the scorer; each entry (and each copy scikit-learn's
    ``get_scorer`` makes of it) builds its own copy at its first call or attribute lookup,
    then hands every call and attribute to it, so ``set_score_request`` on one copy changes
    no other.
    """

    def __init__(self, name, build):
        self.name = name
        self._build = build

    @property
    def _chimeraboost_name(self):
        return self.name

    def _scorer_now(self):
        scorer = self.__dict__.get("_scorer")
        if scorer is None:
            scorer = self._scorer = copy.deepcopy(self._build(self.name))
        return scorer

    def __call__(self, estimator, X, y_true=None, **kwargs):
        return self._scorer_now()(estimator, X, y_true, **kwargs)

    def __getattr__(self, attr):
        # Reached only for what the entry lacks (set_score_request, _response_method...);
        # never for dunders or its own attributes, so copy and pickle see a plain object.
        if attr.startswith("__") or attr in ("name", "_build", "_scorer"):
            raise AttributeError(attr)
        return getattr(self._scorer_now(), attr)

    def __repr__(self):
        return repr(self._scorer_now())


def serve_lazily(names, build) -> None:
    """Make ``names`` scoring strings of scikit-learn without loading scikit-learn.

    A :class:`LazyScorer` goes under each name not taken, in scikit-learn's scorer dict: now
    if its module is loaded (and into the sets of valid names already built), else right
    after it is executed, by a one-shot import hook on that module (nothing but the dict and
    the sets of valid names built so far is touched, so the import of scikit-learn that is
    under way is not disturbed).
    """
    module = sys.modules.get(SCORER_MODULE)
    if module is not None:
        _serve(module, names, build)
    elif not any(isinstance(f, _ServeWhenLoaded) for f in sys.meta_path):
        sys.meta_path.insert(0, _ServeWhenLoaded(tuple(names), build))


def _serve(module, names, build) -> None:
    registry = getattr(module, "_SCORERS", None)
    if not isinstance(registry, dict):
        return  # moved: chimeraboost.scorers.register() warns, naming what moved
    for name in names:
        registry.setdefault(name, LazyScorer(name, build))
    served = [n for n in names if getattr(registry[n], "_chimeraboost_name", None) == n]
    # The sets of valid names built so far (check_scoring's, built by the module itself).
    for options in scoring_name_sets():
        options.update(served)


class _ServeWhenLoaded:
    """A finder of ``sys.meta_path`` (PEP 451's protocol; importlib.abc is not imported, it
    costs the command line time) that finds nothing itself: it wraps the loader of
    scikit-learn's scorer module so that the entries are served once the module has run."""

    def __init__(self, names, build):
        self.names, self.build = names, build

    def find_spec(self, fullname, path=None, target=None):
        if fullname != SCORER_MODULE:
            return None
        sys.meta_path.remove(self)  # one shot; the other finders find the module
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if find is None else find(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _ThenServe(spec.loader, self.names, self.build)
                return spec
        return None


class _ThenServe:
    def __init__(self, loader, names, build):
        self.loader, self.names, self.build = loader, names, build

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        try:
            _serve(module, self.names, self.build)
        except Exception:  # noqa: BLE001 - never break scikit-learn's own import
            pass

    def __getattr__(self, attr):  # get_source, is_package...: the real loader's
        if attr.startswith("__") or attr in ("loader", "names", "build"):
            raise AttributeError(attr)
        return getattr(self.loader, attr)


def integration_problems(scoring_names) -> list[str]:
    """Human-readable list of what no longer works as this module expects (empty if fine).

    ``scoring_names`` are the strings that must resolve to chimeraboost's scorers.
    """
    try:
        registry = scorer_registry()
    except RuntimeError as exc:
        return [str(exc)]
    problems = []
    if ScorerBase is FallbackScorerBase:
        problems.append(
            "chimeraboost.scorers derives its scorers from sklearn.metrics._scorer._BaseScorer "
            "(with _score, set_score_request, _get_metadata_request), which this scikit-learn "
            "no longer provides; the scorers fell back to chimeraboost's own scorer base, "
            "which keeps the metadata routing of sample_weight through scikit-learn's public "
            "API. Please report this with your scikit-learn version."
        )
    for name in scoring_names:
        if getattr(registry.get(name), "_chimeraboost_name", None) != name:
            problems.append(
                f"{name!r} is not registered to chimeraboost's scorer (does chimeraboost's "
                "__init__ call scorers.register()?)"
            )
    from sklearn.model_selection import cross_validate

    constraints = getattr(cross_validate, "_skl_parameter_constraints", None)
    if not isinstance(constraints, dict) or not any(string_option_sets(constraints)):
        problems.append(
            internals_error(
                "cross_validate._skl_parameter_constraints no longer holds the set of scoring "
                "names, so names registered after import may be rejected"
            )
        )
    elif not all(set(scoring_names) <= s for s in string_option_sets(constraints)):
        problems.append("cross_validate's set of valid scoring strings lacks chimeraboost's names")
    return problems
