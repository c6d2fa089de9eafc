import numpy as np

from course_lib.lessons import exercises
from course_lib.lessons.exercises import Exercise, choice, count_is, names, number, same, whole_number


def test_unanswered_wrong_and_right():
    ex = Exercise("t.1", "How many nodes?", expect=6, hints=["count them", "x, w, 1, mul, add, sin"])
    r = ex.check(...)
    assert r.ok is None and r.hint == 0 and r.said == ""
    assert "count them" in repr(r) and "not answered" in r._repr_html_()  # end to end, in English
    r = ex.check(5)
    assert r.ok is False and r.hint == 0 and r.message == "Hint: count them"
    r = ex.check(7)
    assert r.ok is False and r.hint == 1  # the next hint
    right = ex.check(6.0)
    assert right.ok is True and right.hint is None and right.said.msgid is exercises.WELL_DONE and bool(ex.check(6))


def test_no_hints_says_try_again_and_how_to_answer():
    ex = Exercise("t.4", "?", expect=2)
    first = ex.check()
    assert first.ok is None and first.hint is None and first.message == exercises.REPLACE_THE_DOTS
    assert ex.check(3).hint is None and ex.check(3).message == "try again"


def test_checker_functions_cannot_crash_the_notebook():
    def boom(answer):
        raise KeyError("oops")

    r = Exercise("t.2", "?", expect=boom).check(1)
    assert r.ok is False and r.said.msgid is exercises.COULD_NOT_CHECK and r.said.values["error"] == "KeyError"
    ok = Exercise("t.3", "?", expect=lambda a: (a > 2, "bigger than two")).check(3)
    assert ok.ok and ok.message == "bigger than two" and ok.said == "bigger than two"  # a notebook's own words


def test_same_is_loose_where_students_are():
    assert same(" Define-by-run ", "define-by-run")
    assert same([1, 2.0000000001], (1, 2))
    assert not same([1, 2], [1, 2, 3])
    assert same({"X", "w"}, {"x", "W"})
    assert same(np.array([1.0, 2.0]), np.array([1, 2]))
    assert not same("1", 1.5) and not same(None, 1)
    assert same(True, True) and not same(1, True)


def test_number_reads_numbers_and_numeric_text_only():
    assert number(3) == 3.0 and number(np.int64(4)) == 4.0 and number(" 2.5 ") == 2.5
    for junk in (True, np.bool_(False), "many", None, [1.0], np.array([1.0, 2.0]), float("nan"), float("inf"), ...):
        assert number(junk) is None, junk


def test_whole_number_refuses_fractions():
    assert whole_number(4) == 4 and whole_number(4.0) == 4 and whole_number("7") == 7
    assert whole_number(4.5) is None and whole_number(False) is None


def test_names_from_text_or_a_collection():
    assert names("x, W  b") == {"x", "w", "b"}
    assert names(("X", " y ")) == {"x", "y"}
    assert names(3) is None and names(None) is None


def test_count_is_computes_the_truth_at_check_time():
    calls = []

    def truth():
        calls.append(1)
        return 5

    check = count_is(truth, "graphs", lambda t: f"{t} graphs")
    assert calls == []  # nothing computed when the exercise is made
    ok, said = check("five")
    assert not ok and said.msgid is exercises.NUMBER_OF["graphs"] and calls == []
    assert check(5) == (True, "5 graphs")
    ok, said = check(6)
    assert not ok and said.msgid is exercises.NOT_IT and said.values == {"answer": "6"}
    assert said == "6 is not it"  # end to end, in English
    assert len(calls) == 2
    assert count_is(lambda: 1, "", "one")(True)[1].msgid is exercises.ANSWER_WITH_A_NUMBER
    other = count_is(lambda: 1, "apples", "one")(None)[1]
    assert other.msgid is exercises.ANSWER_WITH_A_NUMBER_OF and other.values == {"unit": "apples"}


def test_choice_says_which_option_and_why():
    check = choice({"a": "one", "b": "two"}, lambda: "b", {"a": "not one", "b": "two it is"})
    ok, said = check(" B) ")
    assert ok and said.msgid is exercises.CHOSE and said.values == {"letter": "b", "reason": "two it is"}
    ok, said = check("a")
    assert not ok and said.values["letter"] == "a" and said == "a: not one"
    ok, said = check("z")
    assert not ok and said.msgid is exercises.ONE_LETTER and said.values == {"letters": "a, b"}


def test_hints_move_on_when_a_cell_rebuilds_its_exercise() -> None:
    # Notebooks 03 and 04 build their Exercise inside the answer cell: every re-run makes a new object.
    def rebuilt() -> Exercise:
        return Exercise("9.1", "How many?", 3, hints=["first hint", "second hint", "third hint"])

    results = [rebuilt().check(2) for _ in range(3)]
    assert [r.hint for r in results] == [0, 1, 2]
    assert results[2].message == "Hint: third hint"
    assert Exercise("9.2", "How many?", 3, hints=["first hint", "second"]).check(2).hint == 0


def test_untouched_starting_code_is_not_an_attempt() -> None:
    """Run All over an untouched notebook: the starting code of a code exercise (a bare ``...`` where the student
    writes) is "not answered", the first hint, and no attempt is counted, so the student's first real try still
    gets the first hint after a wrong answer."""
    def run(fetch, feed):
        values = {}
        for node in fetch:  # noqa: B007 - notebook 02's starting code: the student writes the body that uses node
            ...  # your code: values[node] = ...
        return values

    def written(fetch, feed):
        return sum(feed.values())

    ex = Exercise("t.6", "write run", expect=lambda f: (f({}, {"x": 1.0}) == 1.0, ""), hints=["first", "second"])
    for _ in range(3):  # Run All, three times over
        r = ex.check(run)
        assert r.ok is None and r.hint == 0
    assert ex.check({"x": ...}).ok is None and ex.check([1.0, ...]).ok is None
    assert ex.check(lambda fetch, feed: 0.0).hint == 0  # the first real (wrong) try gets the first hint
    assert ex.check(written).ok is True


def test_choice_is_data_a_test_can_read() -> None:
    check = choice({"a": "one", "b": "two"}, lambda: "b", {"a": "no", "b": "yes"})
    assert check.options == {"a": "one", "b": "two"} and check.letter() == "b"
    assert check("b") == (True, "b: yes")


def test_code_of_hides_an_exercise_and_shows_the_rest() -> None:
    from course_lib.lessons import tiny_static
    from course_lib.lessons.source_view import code_of

    whole, hidden = code_of(tiny_static).source, code_of(tiny_static, hide={"run": "02.6"}).source
    body = "values[fetch]"
    assert body in whole and body not in hidden and "exercise 02.6" in hidden
    assert hidden.count("\ndef ") == whole.count("\ndef ")  # every other function still there
    assert compile(hidden, "shown", "exec")  # what is shown is still Python
