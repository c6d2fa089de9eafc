"""Edit cost: the structure behind the timings (nodes added, compiles), never a timing threshold."""

from __future__ import annotations

from course_lib.lessons import edit_cost


def test_static_engine_counts() -> None:
    c = edit_cost.static_edit_cost(repeat=3, number=4)
    assert c.edits == 13 and c.nodes_before == c.nodes_after_steady
    assert c.nodes_added == c.edits  # one node per edit
    assert c.compiles_steady == 0  # steady runs reuse the plan
    assert c.compiles_edit == c.edits  # every edit recompiles


def test_table_has_a_row_per_engine() -> None:
    c = edit_cost.static_edit_cost(repeat=2, number=2)
    rows = edit_cost.table([c, c]).splitlines()
    assert len(rows) == 4 and rows[0].split()[0] == "engine" and "course_lib.static" in rows[2]
