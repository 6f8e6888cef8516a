"""Test configuration shared by every test module."""

import os

from hypothesis import settings

# CI runs each property test on the same examples every time, so a red build always means a
# change in the code, never a newly drawn example; local runs keep exploring.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
