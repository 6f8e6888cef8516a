"""Fixtures of the dask tests."""

import pytest


@pytest.fixture
def synchronous():
    """Every graph computed on the calling thread: the tests compare numbers, and a thread
    pool on two shared cores only adds waiting. Modules that want it say
    ``pytestmark = [pytest.mark.usefixtures("synchronous"), ...]``; those that start a
    cluster do not."""
    dask = pytest.importorskip("dask")
    with dask.config.set(scheduler="synchronous"):
        yield
