# lit configuration for plate. Each test is a file with RUN lines; %plate is
# the driver under test, FileCheck and `not` come from llvm-14-tools.
import os
import lit.formats

config.name = "plate"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".plate", ".test", ".jsonl"]
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
config.environment["PLATE_STDLIB"] = config.plate_stdlib
# Verify the IR after every pass whatever the build type (passes/Pass.h),
# and check every compiled stream against its script
# (backend/TranslationValidation.h).
config.environment["PLATE_VERIFY_EACH"] = "1"
config.environment["PLATE_VALIDATE"] = "1"
# Diagnostics must not depend on the terminal.
config.environment["NO_COLOR"] = "1"
config.environment["TERM"] = "dumb"
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
