"""Target encoding of high-cardinality categoricals inside ChimeraBoost: scikit-learn's
TargetEncoder, cross-fitted on the rows of positive weight, one column per class."""

import numpy as np
from scipy.special import expit

from chimeraboost.estimators import ChimeraBoostClassifier

ONE = dict(n_threads=1, random_state=0)


def _city_table(n, seed):
    """A 40-level column whose levels shift the log-odds, a 3-level one that does nothing."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    effect = np.linspace(-2.0, 2.0, 40)
    city = rng.integers(0, 40, n)
    X = pd.DataFrame({"city": pd.Categorical([f"c{k}" for k in city]),
                      "colour": pd.Categorical(rng.choice(["red", "green", "blue"], n)),
                      "x": rng.normal(size=n)})
    y = (rng.uniform(size=n) < expit(effect[city] + X["x"].to_numpy())).astype(int)
    return X, y


def test_high_cardinality_columns_are_target_encoded_as_sklearn_does():
    from sklearn.preprocessing import TargetEncoder

    X, y = _city_table(1500, 10)
    model = ChimeraBoostClassifier(**ONE).fit(X, y)
    assert model.target_encoded_features_.tolist() == [True, False, False]
    assert model.categorical_features_.tolist() == [True, True, False]
    # A new row's encoding is scikit-learn's TargetEncoder fitted on every training row
    # (levels are matched by value, so the frequency codes inside change nothing).
    X_new, _ = _city_table(300, 11)
    reference = TargetEncoder(target_type="binary").fit(X[["city"]], y)
    np.testing.assert_allclose(model._transform(X_new)[:, -1],
                               reference.transform(X_new[["city"]])[:, 0])
    # The engine splits on the 3-level column natively, on the encoding as a number.
    engine_mask = model.estimators_[0].is_categorical_
    assert engine_mask.tolist() == [True, False, False]


def test_target_encoding_of_a_multiclass_target_has_one_column_per_class():
    X, y = _city_table(900, 12)
    y = np.where(X["x"].to_numpy() > 0.5, 2, y)  # three classes
    model = ChimeraBoostClassifier(**ONE).fit(X, y)
    assert model._transform(X).shape == (900, 2 + 3)  # colour, x, then 3 encodings
    assert model.predict_proba(X).shape == (900, 3)


def test_zero_weight_rows_stay_out_of_the_target_encoding():
    # A weight of 0 is the row left out, for the encoding too (it is cross-fitted on the rows
    # of positive weight only).
    X, y = _city_table(600, 13)
    w = np.where(np.arange(600) % 4 == 0, 0.0, 1.0)
    keep = w > 0
    a = ChimeraBoostClassifier(**ONE).fit(X, y, sample_weight=w)
    b = ChimeraBoostClassifier(**ONE).fit(X[keep], y[keep], sample_weight=w[keep])
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X))
