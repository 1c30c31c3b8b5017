"""Every package folder is listed in pyproject.toml, so a regular (non-editable) install ships all of tinytf;
an editable install would hide a missing entry."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# folder in the repository -> the installed package name it maps to (pyproject's package-dir)
TOP = {"tinytf": "tinytf", "runtime": "tinytf.runtime", "autograph": "tinytf.autograph", "benchmarks": "tinytf.bench"}


def listed_packages():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        text = f.read()
    block = text[text.index("packages = ["):]
    return set(re.findall(r'"([\w.]+)"', block[:block.index("]")]))


def package_folders():
    found = set()
    for folder, name in TOP.items():
        for path, _, files in os.walk(os.path.join(ROOT, folder)):
            if "__init__.py" in files:
                relative = os.path.relpath(path, os.path.join(ROOT, folder))
                found.add(name if relative == "." else name + "." + relative.replace(os.sep, "."))
    return found


def test_every_package_is_listed():
    missing = package_folders() - listed_packages()
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"


def test_a_clone_named_tinytf_imports_the_package_from_its_parent_folder(tmp_path):
    """Users clone into a folder named tinytf, `pip install -e .` it, and run scripts from the folder holding the
    clone: `import tinytf` must give the package, not the clone's folder as an empty namespace package."""
    import subprocess
    import sys

    os.symlink(ROOT, tmp_path / "tinytf")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    script = "import tinytf as tf; print(tf.constant([1, 2]).numpy().sum(), tf.function.__module__)"
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "3"
