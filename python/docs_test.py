"""Runs every example of docs/python.md (doctest): the docs cannot go
stale."""

import doctest
import os


def test_docs_python_md():
    path = os.path.join(os.environ["TEST_SRCDIR"], "mnk", "docs", "python.md")
    failed, attempted = doctest.testfile(
        path, module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted >= 15
    assert failed == 0
