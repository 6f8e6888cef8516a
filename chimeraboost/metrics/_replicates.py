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

# Elements of one (replicates, rows) weight matrix: 2^22 float64 = 32 MB, so that a chunk of
# replicates' weights and the temporaries of its sums stay a few such matrices whatever the
# size of the block.
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
        if groups is not None:
            values = np.asarray(groups)
            if values.ndim != 1 or values.shape[0] != n:
                msg = (f"groups must hold one value per row of the chunk ({n}), got shape "
                       f"{values.shape}.")
                raise ValueError(msg)
            keys = group_keys(values)
        else:
            start = rows_seen if first_row is None else first_row
            if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0:
                msg = (f"first_row must be the position of the chunk's first row among all "
                       f"rows (an int >= 0), got {first_row!r}.")
                raise ValueError(msg)
            keys = row_keys(int(start), n)
        self.kind = kind  # only once the chunk's keys are known good
        return keys


class _SortedRows:
    """A chunk's rows sorted once by (confusion cell, first class column's score cell), so
    that the sums of each replicate's weights over either are contiguous runs.

    The replicates' weights are then generated in this order (from the permuted keys) and
    summed with ``reduceat``: one sequential pass per replicate, no gather.
    """

    def __init__(self, cells, cell0, size0, K):
        joint = cells * (2 * size0) + cell0
        self.order = np.argsort(joint, kind="stable")
        key = joint[self.order]
        start = np.empty(key.shape[0], dtype=bool)
        start[:1] = True
        np.not_equal(key[1:], key[:-1], out=start[1:])
        self.starts = np.flatnonzero(start)
        run = key[self.starts]
        self.run_cm, run_cell = run // (2 * size0), run % (2 * size0)
        # Per confusion cell present: its runs, and where they go among the score cells
        # (distinct within one confusion cell).
        self.blocks = []
        for c in np.unique(self.run_cm):
            runs = np.flatnonzero(self.run_cm == c)
            self.blocks.append((int(c), runs, run_cell[runs]))
        self.size0, self.K = size0, K

    def add(self, col, j, weights, rows) -> np.ndarray:
        """Add the (b, n) sorted ``weights`` to column ``col`` (class ``j``) of weight
        vectors ``rows``; returns their (b, K * K) confusion sums."""
        size, K = self.size0, self.K
        runs = np.add.reduceat(weights, self.starts, axis=1)
        cm = np.zeros((weights.shape[0], K * K))
        neg, ev, sq = col.sums[0, rows], col.sums[1, rows], col.sums[2, rows]  # views
        for c, idx, cell in self.blocks:
            part = runs[:, idx]
            cm[:, c] += part.sum(axis=1)
            if c // K == j:  # the class's rows: events of this column
                ev[:, cell - size] += part
                first, last = self.starts[idx[0]], (self.starts[idx[-1] + 1] if idx[-1] + 1 <
                                                    self.starts.shape[0] else weights.shape[1])
                w = weights[:, first:last]
                sq[:, cell - size] += np.add.reduceat(w * w, self.starts[idx] - first, axis=1)
            else:
                neg[:, cell] += part
        return cm


def add_replicates(acc, keys, codes, p, w, ll, brier, pred, kept, located) -> None:
    """Add a chunk's Poisson-weighted sums to rows ``1..B`` of ``acc``'s sums.

    ``w``: the rows' weights already on the accumulator's scale (None: ones); ``ll``,
    ``brier``, ``pred``: the per-row losses and predicted class; ``kept``: the rows the score
    summaries hold (positive weight; None: all), ``located``: per class column, where its
    kept scores sit (:meth:`_ScoreSummary.locate`).
    """
    if kept is not None and kept.size == 0:
        return  # every row weighs 0: every replicate's sums grow by 0 (and no score is kept)
    n, K, B = codes.shape[0], acc.n_classes, acc.n_boot
    columns = [1] if K == 2 else list(range(K))
    cells = codes.astype(np.intp) * K + pred
    # Per class column, each row's (event, score group) cell; rows of weight zero (not kept
    # by the summary) go to cell 0 with their zero weight.
    grid = []
    for col, j, index in zip(acc._cols, columns, located):
        size = col.sums.shape[-1]
        cell = np.zeros(n, dtype=np.intp)
        cell[slice(None) if kept is None else kept] = index
        cell += size * (codes == j)
        grid.append((col, j, cell, size))
    sorted_rows = _SortedRows(cells, grid[0][2], grid[0][3], K)
    order = sorted_rows.order
    mixed = mixed_keys(keys[order])
    # Every linear sum is one product with the (b, n) weights: the two losses and each
    # class column's squared error.
    linear = np.column_stack([ll, brier] + [np.square(p[:, j] - (codes == j))
                                            for j in columns])[order]
    w = None if w is None else w[order]
    others = [(col, cell[order], size) for col, _, cell, size in grid[1:]]
    chunk = max(1, min(B, _CHUNK_ELEMENTS // max(n, 1)))
    counts = np.empty((chunk, n))
    square = np.empty(n)
    for start in range(0, B, chunk):
        stop = min(B, start + chunk)
        rows = slice(1 + start, 1 + stop)
        weights = poisson_counts(acc._seeds[start:stop], mixed, counts[:stop - start])
        if w is not None:
            weights *= w
        sums = weights @ linear
        acc._loss[rows] += sums[:, :2]
        acc._sq[rows] += sums[:, 2:]
        cm = sorted_rows.add(grid[0][0], grid[0][1], weights, rows)
        acc._cm[rows] += cm
        acc._class_w[rows] += cm.reshape(-1, K, K).sum(axis=2)
        # The other class columns (multiclass): one bincount per replicate and sum, which
        # reads the weights in order and adds into cells that stay in the cache.
        for r, row in enumerate(weights, start=1 + start):
            if others:
                np.multiply(row, row, out=square)
            for col, cell, size in others:
                both = np.bincount(cell, weights=row, minlength=2 * size)
                col.sums[0, r] += both[:size]
                col.sums[1, r] += both[size:]
                col.sums[2, r] += np.bincount(cell, weights=square, minlength=2 * size)[size:]
