"""Test configuration shared by every test module."""

import os

# One thread per process for OpenMP and BLAS: the test machines are shared, and threads that
# wait for busy cores spin (a 7 s run once took minutes). Set before any engine starts, and
# enforced with threadpoolctl for pools that are already up.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from hypothesis import settings  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

threadpool_limits(limits=1)

# CI runs each property test on the same examples every time, so a red build always means a
# change in the code, never a newly drawn example; local runs keep exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
