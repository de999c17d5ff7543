# A fixture suite run by crash-is-failure.test with plate's own lit
# configuration, so that its RUN lines mean what they mean in test/lit.
import os

lit_config.load_config(
    config, os.path.join(os.path.dirname(__file__), "..", "..", "..", "lit.cfg.py"))
config.name = "harness-fixture"
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params["harness_exec_root"]
