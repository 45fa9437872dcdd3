"""The cronus binary an independent check (bench/check_*.py) runs.

Shared by the checks, which each took it the same way: the path given on
the command line, or, for "-" or none, a build of this checkout into the
check's scratch directory.
"""

import os
import subprocess


def cronus_exe(arg, tmp):
    """Returns the absolute path of the binary: arg, or a fresh build in tmp
    when arg is None or "-"."""
    if arg is not None and arg != "-":
        return os.path.abspath(arg)
    exe = os.path.join(tmp, "cronus")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["go", "build", "-o", exe, "."], cwd=root, check=True)
    return exe
