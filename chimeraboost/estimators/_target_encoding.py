"""High-cardinality categorical columns, encoded by their cross-fitted target means.

Questions answered here:

- Which categorical columns are too rich in levels for the engine's native categorical
  splits?  -> ``HIGH_CARDINALITY``: more than 10 levels in the training rows.
- What replaces them?  -> ``HighCardinalityEncoder``: scikit-learn's ``TargetEncoder``
  (Micci-Barreca 2001's shrunk target means), cross-fitted on the training rows so that no row's
  own target enters its encoding; one column per feature (binary and regression targets) or
  one per class (multiclass).

Why: the engine's native split on a categorical column sorts its levels by their gradient
statistics on the very rows it splits, which overfits when there are many levels with few
rows each. On the panel's ``mlc_churn`` (a 51-level ``state`` column) dropping that column
lowered the booster's held-out log loss from 0.226 to 0.181; cross-fitted target encoding
keeps what the column knows without the overfit (see ``docs/estimators.md``).

References
----------
Micci-Barreca, D. (2001). A preprocessing scheme for high-cardinality categorical attributes
in classification and prediction problems. ACM SIGKDD Explorations 3(1), 27-32.
https://doi.org/10.1145/507533.507538
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.preprocessing import TargetEncoder

# A categorical column with more levels than this (among the training rows) is target-encoded.
HIGH_CARDINALITY = 10


class HighCardinalityEncoder:
    """Replaces the high-cardinality columns of the encoded matrix by target encodings.

    ``fit_transform`` returns the new matrix and its categorical mask: the other columns
    first, in their order, then the encodings (numeric, so not categorical).
    """

    def fit_transform(self, Xf, mask, y, rows, target_type, seed):
        levels = [np.unique(Xf[rows, j][~np.isnan(Xf[rows, j])]).size if mask[j] else 0
                  for j in range(Xf.shape[1])]
        self.columns_ = np.array([j for j, k in enumerate(levels) if k > HIGH_CARDINALITY],
                                 dtype=np.intp)
        self.keep_ = np.setdiff1d(np.arange(Xf.shape[1]), self.columns_)
        if not self.columns_.size:
            return Xf, mask
        split = KFold if target_type == "continuous" else StratifiedKFold
        self.encoder_ = TargetEncoder(target_type=target_type,
                                      cv=split(n_splits=5, shuffle=True, random_state=seed))
        # Cross-fitted on the rows that train (positive weight); any other row gets the
        # encoding learnt from all of them, as a new row would.
        fitted = self.encoder_.fit_transform(Xf[np.ix_(rows, self.columns_)], y[rows])
        encoded = self.encoder_.transform(Xf[:, self.columns_])
        encoded[rows] = fitted
        out = np.hstack([Xf[:, self.keep_], encoded])
        new_mask = np.concatenate([mask[self.keep_], np.zeros(encoded.shape[1], dtype=bool)])
        return out, new_mask

    def transform(self, Xf):
        if not self.columns_.size:
            return Xf
        return np.hstack([Xf[:, self.keep_], self.encoder_.transform(Xf[:, self.columns_])])
