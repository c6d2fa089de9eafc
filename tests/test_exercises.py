import numpy as np

from course_lib.lessons.exercises import Exercise, same


def test_unanswered_wrong_and_right():
    ex = Exercise("t.1", "How many nodes?", expect=6, hints=["count them", "x, w, 1, mul, add, sin"])
    r = ex.check(...)
    assert r.ok is None and "count them" in repr(r) and "not answered" in r._repr_html_()
    r = ex.check(5)
    assert r.ok is False and "Hint: count them" in r.message
    r = ex.check(7)
    assert "x, w, 1" in r.message  # the next hint
    assert ex.check(6.0).ok is True and bool(ex.check(6))


def test_checker_functions_cannot_crash_the_notebook():
    def boom(answer):
        raise KeyError("oops")

    r = Exercise("t.2", "?", expect=boom).check(1)
    assert r.ok is False and "could not check" in r.message
    ok = Exercise("t.3", "?", expect=lambda a: (a > 2, "bigger than two")).check(3)
    assert ok.ok and ok.message == "bigger than two"


def test_same_is_loose_where_students_are():
    assert same(" Define-by-run ", "define-by-run")
    assert same([1, 2.0000000001], (1, 2))
    assert not same([1, 2], [1, 2, 3])
    assert same({"X", "w"}, {"x", "W"})
    assert same(np.array([1.0, 2.0]), np.array([1, 2]))
    assert not same("1", 1.5) and not same(None, 1)
    assert same(True, True) and not same(1, True)
