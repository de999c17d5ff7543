# lit configuration for plate. Each test is a file with RUN lines; %plate is
# the driver under test, FileCheck and `not` come from llvm-14-tools.
import os
import sys

import lit

sys.path.insert(0, os.path.dirname(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from plate_format import PlateTest  # noqa: E402

config.name = "plate"
config.test_format = PlateTest(execute_external=False)
config.suffixes = [".plate", ".test", ".jsonl", ".pir"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)

site = lit_config.params.get("plate_site_config")
if site:
    lit_config.load_config(config, site)

config.test_exec_root = os.path.join(config.plate_obj_root, "test", "lit-out")
config.substitutions.append(("%plate", config.plate_binary))
config.substitutions.append(("%stdlib", config.plate_stdlib))
config.substitutions.append(("%examples", config.plate_examples))
config.substitutions.append(("%python", "python3"))
# Negative RUN lines: %expect-exit CODE for the driver's documented codes
# (1 input errors, 2 usage), %not (LLVM's `not`, which fails when the
# program crashes) for tools without documented codes. PlateTest refuses
# the internal shell's `not`.
config.substitutions.append(
    ("%expect-exit", "python3 " + os.path.join(config.test_source_root, "Inputs", "expect-exit.py")))
# SARIF logs are checked against the published schema with Debian's
# python3-jsonschema (tools/setup.sh), which only Debian's interpreter sees.
config.substitutions.append(
    ("%sarif-check", "/usr/bin/python3 " + os.path.join(
        config.test_source_root, "diagnostics", "Inputs", "check_sarif.py")))
config.substitutions.append(("%not", os.path.join(config.llvm_tools_dir, "not")))
# Opentrons' own simulator checks the OT-2 backend's protocols
# (test/lit/ot2, docs/porting.md): an installed `opentrons` package, else
# the snapshot in ../shared/peers/opentrons (lit parameter
# opentrons_snapshot or $PLATE_OPENTRONS_SNAPSHOT to put it elsewhere),
# run by Debian's python3 with the packages tools/setup.sh installs. The
# simulation tests need one of them (the `opentrons` feature below).
opentrons_snapshot = lit_config.params.get(
    "opentrons_snapshot",
    os.environ.get("PLATE_OPENTRONS_SNAPSHOT",
                   os.path.join(os.path.dirname(os.path.dirname(config.test_source_root)),
                                "..", "shared", "peers", "opentrons")))
config.environment["OPENTRONS_SNAPSHOT"] = os.path.abspath(opentrons_snapshot)
# Issue 17: where neither the package nor the snapshot is there (a machine
# without ../shared), the simulation tests are skipped with a note that
# says what is missing; everything else about the OT-2 backend is tested
# regardless (test/lit/ot2/*.test without REQUIRES).
import subprocess
if os.path.isdir(os.path.join(opentrons_snapshot, "api", "src", "opentrons")) or \
        subprocess.run(["/usr/bin/python3", "-c", "import opentrons"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("opentrons")
else:
    lit_config.note("Opentrons' simulator is not here (no `opentrons` package for "
                    "/usr/bin/python3, no snapshot at {}): test/lit/ot2 simulation "
                    "tests are skipped".format(os.path.abspath(opentrons_snapshot)))
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
# A sanitizer build (CI's second phase) runs what checks plate's own code;
# the Opentrons half of the corpus sweep would repeat the first phase's.
if getattr(config, "plate_sanitized", False):
    config.available_features.add("sanitized")
config.substitutions.append(("%opentrons-check", "/usr/bin/python3 " + os.path.join(
    config.test_source_root, "ot2", "Inputs", "compare_wells.py")))
config.substitutions.append(("%opentrons-sweep", "/usr/bin/python3 " + os.path.join(
    config.test_source_root, "ot2", "Inputs", "ot2_sweep.py")))
# lit itself on a fixture suite (test/lit/harness), with this configuration.
config.substitutions.append(("%lit", "python3 {} --param plate_site_config={}".format(
    os.path.join(os.path.dirname(os.path.dirname(lit.__file__)), "lit.py"),
    os.path.abspath(site))))
config.environment["PLATE_STDLIB"] = config.plate_stdlib
# Verify the IR after every pass whatever the build type (passes/Pass.h),
# and check every compiled stream against its script
# (backend/bioforge1/TranslationValidation.h).
config.environment["PLATE_VERIFY_EACH"] = "1"
config.environment["PLATE_VALIDATE"] = "1"
# Diagnostics must not depend on the terminal.
config.environment["NO_COLOR"] = "1"
config.environment["TERM"] = "dumb"
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
