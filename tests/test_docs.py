"""Every ```python block of README.md and docs/*.md runs as written: a page's blocks run in order in one
namespace (like a reader pasting them into one session), in a scratch folder, with passes as configured."""

import glob
import os
import re

import pytest

from tinytf import config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(page):
    with open(os.path.join(ROOT, page)) as f:
        text = f.read()
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in BLOCK.finditer(text)]


def test_blocks_are_found():
    assert python_blocks("README.md"), "README.md's example is no longer a ```python block"


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)])
def test_page_runs(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    saved = config.optimizer_snapshot()  # a page may switch passes (performance.md turns them on): not for the rest
    try:
        for line, source in python_blocks(page):
            # Compiled under the page's name, padded so a traceback points at the page's own line.
            code = compile("\n" * (line - 1) + source, os.path.join(ROOT, page), "exec")
            exec(code, namespace)
    finally:
        config.restore_optimizer_snapshot(saved)
