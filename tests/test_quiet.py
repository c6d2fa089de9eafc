"""course_lib.adapters.quiet: noisy framework calls leave nothing machine-specific in a notebook's outputs."""

from __future__ import annotations

import logging
import sys
import warnings

from course_lib.adapters import quiet


def test_captured_collects_prints_warnings_and_child_logger_records() -> None:
    child = logging.getLogger("noisy.child.module")
    handler = logging.StreamHandler(sys.stderr)  # a handler of its own, as torch's loggers have
    child.addHandler(handler)
    try:
        with quiet.captured("noisy") as out:
            print("to stdout")
            print("to stderr", file=sys.stderr)
            # stacklevel=1: the warning is this test's own line, as a library's warning is the library's line
            warnings.warn("first", UserWarning, stacklevel=1)
            warnings.warn("first", UserWarning, stacklevel=1)
            warnings.warn("second", DeprecationWarning, stacklevel=1)
            child.warning("W1202 12:00:00 pid 123 a log line")
        assert child.handlers == [handler]  # restored
    finally:
        child.removeHandler(handler)
    assert "to stdout" in out.text and "to stderr" in out.text and "W1202" in out.text
    assert out.warnings == [("UserWarning", "first"), ("DeprecationWarning", "second")]
    assert repr(out) == "UserWarning: first\nDeprecationWarning: second"
    assert out.warned("UserWarning", "fir") and not out.warned("UserWarning", "second")
    assert repr(quiet.Captured()) == "no warnings"


def test_summarize_finds_the_inner_error_and_the_repeated_line() -> None:
    text = ("in user code:\n\n"
            '    File "/tmp/ipykernel_1/1.py", line 5, in f  *\n        h = g(f(x))\n'
            '    File "/tmp/ipykernel_1/1.py", line 5, in f  *\n        h = g(f(x))\n'
            '    File "/tmp/__autograph_generated_fileab12.py", line 25, in if_body\n        raise\n\n'
            "    RecursionError: maximum recursion depth exceeded in comparison\n")
    s = quiet.summarize(RuntimeError(text))
    assert (s.kind, s.message) == ("RuntimeError", "in user code:")
    assert s.cause == "RecursionError: maximum recursion depth exceeded"  # the varying tail is dropped
    assert s.repeated == "h = g(f(x))" and s.repeats == 2
    assert "/tmp" not in repr(s)


def test_summarize_a_plain_error() -> None:
    s = quiet.summarize(ValueError("one line"))
    assert repr(s) == "ValueError: one line" and s.cause == "" and s.repeated == ""


def test_error_of_returns_a_summary_or_none_and_keeps_output_out() -> None:
    def noisy() -> None:
        print("printed while failing")
        raise KeyError("missing")

    s = quiet.error_of(noisy)
    assert s is not None and s.kind == "KeyError" and s.message == "'missing'"
    assert quiet.error_of(len, [1, 2]) is None


def test_an_intended_error_shows_two_lines_and_folds_the_rest_with_paths_that_travel() -> None:
    import sys

    from course_lib.adapters.quiet import error_of

    def deep(n: int) -> None:
        if n == 0:
            raise ValueError("the first line says what\nand a second line says more")
        deep(n - 1)

    summary = error_of(deep, 3)
    assert repr(summary) == "ValueError: the first line says what"
    assert len(summary.frames) == 5 and summary.frames[-1].endswith('raise ValueError("the first line says what\\n'
                                                                     'and a second line says more")')
    page = summary._repr_html_()
    head, folded = page.split("<details", 1)
    assert "the first line says what" in head and "second line" not in head  # only the summary is open
    assert "second line says more" in folded and "(5 frames)" in folded
    assert sys.prefix not in page and "/tmp/" not in page  # the same on every machine


def test_paths_quoted_in_a_message_are_made_machine_independent() -> None:
    from course_lib.adapters.quiet import _travelling

    text = ('File "/tmp/ipykernel_8944/41372776.py", line 3, /home/a/.venv/lib/python3.11/site-packages/torch/x.py '
            "and /tmp/fresh/course_lib/static/build.py, /tmp/__autograph_generated_filer2ycmkha.py")
    assert _travelling(text) == ('File "<cell>", line 3, torch/x.py and course_lib/static/build.py, '
                                 "__autograph_generated_file.py")
