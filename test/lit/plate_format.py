"""The test format of plate's lit suite (loaded by lit.cfg.py; a module of
its own so that lit's worker processes can unpickle it)."""
import re

import lit.formats
import lit.ShUtil
import lit.Test
import lit.TestRunner


def internal_negations(test):
    """The RUN lines of `test` that negate with lit's internal shell."""
    script = lit.TestRunner.parseIntegratedTestScript(test, require_script=False)
    if isinstance(script, lit.Test.Result):
        return []  # ShTest reports the parse error itself
    found = []
    for line in script:
        label = re.match(lit.TestRunner.kPdbgRegex, line)
        command = re.sub(lit.TestRunner.kPdbgRegex, ": '\\1'; ", line)
        try:
            tree = lit.ShUtil.ShParser(command, pipefail=True).parse()
        except Exception:  # lit 14 raises AttributeError on a lone quote
            continue  # ShTest reports the syntax error itself
        if any(negates(tree)):
            found.append(label.group(1) if label else line)
    return found


def negates(node):
    if isinstance(node, lit.ShUtil.Seq):
        yield from negates(node.lhs)
        yield from negates(node.rhs)
        return
    yield node.negate
    for command in node.commands:
        args = list(command.args)
        if args and args[0] == "env":
            # env [-u NAME] [NAME=VALUE]... COMMAND, as lit's updateEnv reads it.
            args.pop(0)
            while args and (args[0] == "-u" or "=" in str(args[0])):
                args = args[2:] if args[0] == "-u" else args[1:]
        yield bool(args) and args[0] in ("not", "!")


class PlateTest(lit.formats.ShTest):
    """ShTest that refuses lit's internal `not` and `!`: they invert the exit
    status in Python, so a program that prints the expected diagnostic and
    then dies by a signal (a sanitizer abort, a segfault on the way out)
    passes. %expect-exit CODE and %not (LLVM's binary) fail on a crash."""

    def execute(self, test, litConfig):
        lines = internal_negations(test)
        if lines:
            return lit.Test.Result(lit.Test.FAIL, "".join(
                "{}: lit's internal `not` counts a crash as the expected failure; "
                "write %expect-exit CODE (exact status) or %not\n".format(line)
                for line in lines))
        return super().execute(test, litConfig)
