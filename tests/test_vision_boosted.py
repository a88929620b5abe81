"""Boosted trees (vision.boosted): they learn, they read back from JSON as they were fitted,
their walk is the trees' own, and the contact model can be made of them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.boosted import BoostedTrees, fit_trees
from vision.contact_model import ContactNet


def _xor(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(float)  # no single cut separates it
    return X, y


def _walk(tree: dict, x: np.ndarray) -> float:
    """One tree's leaf value for one sample, node by node."""
    i = 0
    while tree["left"][i] >= 0:
        i = tree["left"][i] if x[tree["feature"][i]] <= tree["threshold"][i] else tree["right"][i]
    return tree["value"][i]


def test_trees_learn_a_rule_no_single_cut_gives() -> None:
    X, y = _xor(3000, 1)
    Xt, yt = _xor(1000, 2)
    calls: list[int] = []
    w = fit_trees(X, y, trees=60, leaves=8, min_leaf=10, progress=calls.append)
    assert calls == list(range(1, 61))
    bt = BoostedTrees(w)
    assert bt.size == 60
    acc = float(((bt.predict(Xt) > 0.5) == (yt > 0.5)).mean())
    assert acc >= 0.95, acc
    # each tree has at most 8 leaves, and every split leaves min_leaf samples on either side
    for t in w["trees"]:
        leaves = [i for i, left in enumerate(t["left"]) if left < 0]
        assert 2 <= len(leaves) <= 8
    assert fit_trees(X, y, trees=5, leaves=8) == fit_trees(X, y, trees=5, leaves=8)  # deterministic


def test_trees_read_back_from_json_predict_as_their_walk() -> None:
    X, y = _xor(800, 3)
    w = json.loads(json.dumps(fit_trees(X, y, trees=20, leaves=6, min_leaf=5)))
    bt = BoostedTrees(w)
    raw = bt.raw(X[:50])
    want = [w["bias"] + sum(_walk(t, x) for t in w["trees"]) for x in X[:50]]
    np.testing.assert_allclose(raw, want, atol=1e-9)
    np.testing.assert_allclose(bt.predict(X[:50]), 1 / (1 + np.exp(-np.array(want))), atol=1e-6)
    assert bt.predict(X[:0]).shape == (0,)


def test_a_cue_with_few_values_is_cut_between_them() -> None:
    """A yes/no cue gets one cut between 0 and 1, whatever the quantiles say."""
    rng = np.random.default_rng(5)
    flag = (rng.random(500) < 0.1).astype(float)
    X = np.c_[flag, rng.normal(size=500)]
    w = fit_trees(X, flag, trees=20, leaves=2, min_leaf=5)
    t = w["trees"][0]
    assert t["feature"][0] == 0 and t["threshold"][0] == pytest.approx(0.5)
    p = BoostedTrees(w).predict(np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert p[0] < 0.3 and p[1] > 0.7


def test_bad_samples_are_refused() -> None:
    X, y = _xor(100, 4)
    with pytest.raises(ValueError, match="finite"):
        fit_trees(np.where(X > 2, np.nan, X), y)
    with pytest.raises(ValueError, match="bins"):
        fit_trees(X, y, bins=300)
    with pytest.raises(ValueError, match=r"X \(N, F\)"):
        fit_trees(X[:10], y)
    bt = BoostedTrees(fit_trees(X, y, trees=2, leaves=4, min_leaf=5))
    with pytest.raises(ValueError, match="cues"):
        bt.predict(np.zeros((3, 1)))


def test_the_contact_model_can_be_trees() -> None:
    X, y = _xor(600, 6)
    names = ("a", "b", "c", "d")
    w = fit_trees(X, y, trees=10, leaves=6, min_leaf=5)
    net = ContactNet(dict(w, features=list(names), lookahead=[]), names)
    assert net.kind == "trees" and net.size == 10 and net.meta == {"features": list(names), "lookahead": []}
    np.testing.assert_allclose(net.predict(X), BoostedTrees(w).predict(X))
    with pytest.raises(ValueError, match="retrain"):
        ContactNet(dict(w, features=["a", "b"]), ("a", "b", "c", "d"))
    with pytest.raises(ValueError, match="the list names 1"):  # the xor needs cues 0 and 1
        ContactNet(dict(w, features=["a"]), ("a",))

