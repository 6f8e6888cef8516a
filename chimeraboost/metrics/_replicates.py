"""The Poisson bootstrap replicates of an accumulator, added chunk by chunk.

Private to the accumulators (:mod:`chimeraboost.metrics._accumulators`). The question answered
here: how does one chunk of rows add its share to ``B`` bootstrap replicates of every sum an
accumulator keeps, so that accumulators of chunks seen apart (other processes, other
machines) merge into the replicates of all the rows? By weighing each row in replicate ``b``
with a Poisson(1) count that depends on the replicate's seed and the row's key only -- its
position among all rows, or its group's value (:mod:`chimeraboost._shared.poisson`) --
:class:`ReplicateKeys` says which; :func:`add_replicates` does the sums.
"""

from __future__ import annotations

import numpy as np

from .._shared.poisson import group_keys, mixed_keys, poisson_counts, row_keys
from ._score_grid import _Layout

# Elements of one (replicates, rows) weight matrix: 2^22 float64 = 32 MB, so that a chunk,
# its gathers in score order and the products stay a few such matrices whatever the block.
_CHUNK_ELEMENTS = 1 << 22


class ReplicateKeys:
    """What the replicates' counts of an accumulator are keyed by: rows or groups.

    The first chunk decides; a later chunk keyed otherwise is refused, since the replicates
    would then mix two schemes.
    """

    def __init__(self):
        self.kind = None

    def keys(self, n: int, rows_seen: int, groups, first_row) -> np.ndarray:
        """The uint64 key of each of a chunk's ``n`` rows."""
        kind = "rows" if groups is None else "groups"
        if self.kind is not None and kind != self.kind:
            msg = (f"This accumulator's replicates are keyed by {self.kind}, but this chunk "
                   f"{'passes' if groups is not None else 'does not pass'} groups=; pass "
                   "groups= with every chunk or with none.")
            raise ValueError(msg)
        self.kind = kind
        if groups is not None:
            values = np.asarray(groups)
            if values.ndim != 1 or values.shape[0] != n:
                msg = (f"groups must hold one value per row of the chunk ({n}), got shape "
                       f"{values.shape}.")
                raise ValueError(msg)
            return group_keys(values)
        start = rows_seen if first_row is None else first_row
        if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0:
            msg = (f"first_row must be the position of the chunk's first row among all rows "
                   f"(an int >= 0), got {first_row!r}.")
            raise ValueError(msg)
        return row_keys(int(start), n)


def add_replicates(acc, keys, codes, p, w, ll, brier, pred, kept, located) -> None:
    """Add a chunk's Poisson-weighted sums to rows ``1..B`` of ``acc``'s sums.

    ``w``: the rows' weights already on the accumulator's scale (None: ones); ``ll``,
    ``brier``, ``pred``: the per-row losses and predicted class; ``kept``: the rows the score
    summaries hold (positive weight), ``located``: per class column, where its kept scores
    sit (:meth:`_ScoreSummary.locate`).
    """
    n, K, B = codes.shape[0], acc.n_classes, acc.n_boot
    mixed = mixed_keys(keys)
    columns = [1] if K == 2 else list(range(K))
    # Every linear sum is one product with the (b, n) weights: the two losses and each
    # class column's squared error.
    linear = np.column_stack([ll, brier] + [np.square(p[:, j] - (codes == j))
                                            for j in columns])
    cells = _Layout(codes * K + pred, K * K)
    layouts = []
    for col, j, index in zip(acc._cols, columns, located):
        lay = col.layout(index, (codes == j)[kept] if kept is not None else codes == j)
        if kept is not None:
            lay.order = kept[lay.order]
        layouts.append(lay)
    size = max(1, min(B, _CHUNK_ELEMENTS // max(n, 1)))
    counts = np.empty((size, n))
    for start in range(0, B, size):
        stop = min(B, start + size)
        weights = poisson_counts(acc._seeds[start:stop], mixed, counts[:stop - start])
        if w is not None:
            weights *= w
        rows = slice(1 + start, 1 + stop)
        sums = weights @ linear
        acc._loss[rows] += sums[:, :2]
        acc._sq[rows] += sums[:, 2:]
        cm = cells.sums(weights)
        acc._cm[rows] += cm
        acc._class_w[rows] += cm.reshape(-1, K, K).sum(axis=2)
        for col, lay in zip(acc._cols, layouts):
            col.add_replicates(lay, weights, rows)
